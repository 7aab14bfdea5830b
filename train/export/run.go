package export

import (
	"context"
	"fmt"
	"io"
	"time"

	"kumalak/net"
	"kumalak/net/onnx"
	"kumalak/train"
)

// Request is what kumalak export asks: the run to export from, with its
// config, the model file to write (Out; "" = the run's Export file), an
// ONNX copy of the network (ONNX; "" = none) and the strength to measure
// into the card (Strength; none without opponents).
type Request struct {
	Run      train.Dir
	Config   train.Config
	Out      string
	ONNX     string
	Strength Strength
	Now      time.Time // the card's date
}

// Run exports r.Run's best network (Write), measures it (Measure) when
// r.Strength has opponents, writes the ONNX copy when asked, and reports
// on w: a "wrote PATH" line per file written, then the card. The
// matches' progress bars go to progress.
func Run(ctx context.Context, r Request, w, progress io.Writer) error {
	out := r.Out
	if out == "" {
		out = r.Run.Export()
	}
	card, err := Write(r.Run, out, r.Config, r.Now)
	if err != nil {
		return err
	}
	if len(r.Strength.Vs) > 0 {
		if card, err = Measure(ctx, out, r.Strength, progress); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "wrote %s\n", out)
	if r.ONNX != "" {
		m, err := net.Load(out)
		if err != nil {
			return err
		}
		if err := onnx.Write(r.ONNX, m.Params); err != nil {
			return err
		}
		fmt.Fprintf(w, "wrote %s\n", r.ONNX)
	}
	card.WriteText(w)
	return nil
}
