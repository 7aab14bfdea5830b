package kalah

import (
	"fmt"
	"strconv"
	"strings"

	"kumalak/env"
)

// Capture is the capture rule of a Kalah game.
type Capture uint8

// The capture rules. With Opposite (the standard rule, the default), a last stone sown
// into an empty house of the mover's takes itself and the stones of the
// opposite house into the mover's store when that house holds stones; with
// Empty ("empty capture", the rule of Irving, Donkers and Uiterwijk's
// (6,4) and (6,5) values and of Rawlings's (6,6)) it does so even when the
// opposite house is empty (the last stone alone goes to the store); None
// never captures (the tests' Kala).
const (
	Opposite Capture = iota
	Empty
	None
)

var captureNames = [...]string{Opposite: "opposite", Empty: "empty", None: "none"}

// String returns the rule's option value: "opposite", "empty" or "none".
func (c Capture) String() string {
	if int(c) < len(captureNames) {
		return captureNames[c]
	}
	return "capture(" + strconv.Itoa(int(c)) + ")"
}

// Rules are the options of a Kalah game.
type Rules struct {
	Houses  int     // houses a side, 1..MaxHouses
	Seeds   int     // stones in each house at the start, 1..MaxSeeds
	Capture Capture // the capture rule
	// MaxPly, when above 0, ends the game after that many plies, each side
	// keeping the stones of its own houses; positions then carry the ply
	// number (a seventh field), so one position is never met at two
	// depths of a search. The tests' small games use it.
	MaxPly int
}

// Limits of the rules.
const (
	MaxHouses = 8
	MaxSeeds  = 10
	MaxPly    = 1000
)

// Default are the rules registered as "kalah": 6 houses of 4 stones, the
// opposite-capture rule.
var Default = Rules{Houses: 6, Seeds: 4}

// Validate names the first option out of range.
func (r Rules) Validate() error {
	switch {
	case r.Houses < 1 || r.Houses > MaxHouses:
		return fmt.Errorf("kalah: houses=%d out of range 1..%d", r.Houses, MaxHouses)
	case r.Seeds < 1 || r.Seeds > MaxSeeds:
		return fmt.Errorf("kalah: seeds=%d out of range 1..%d", r.Seeds, MaxSeeds)
	case r.Capture > None:
		return fmt.Errorf("kalah: capture %d unknown", r.Capture)
	case r.MaxPly < 0 || r.MaxPly > MaxPly:
		return fmt.Errorf("kalah: plies=%d out of range 0..%d", r.MaxPly, MaxPly)
	}
	return nil
}

// Name returns the registry name of the rules: "kalah" for Default, else
// "kalah:" and the options that differ from it, in the order houses,
// seeds, capture, plies ("kalah:houses=4,seeds=3,capture=empty").
func (r Rules) Name() string {
	var opts []string
	if r.Houses != Default.Houses {
		opts = append(opts, "houses="+strconv.Itoa(r.Houses))
	}
	if r.Seeds != Default.Seeds {
		opts = append(opts, "seeds="+strconv.Itoa(r.Seeds))
	}
	if r.Capture != Default.Capture {
		opts = append(opts, "capture="+r.Capture.String())
	}
	if r.MaxPly != 0 {
		opts = append(opts, "plies="+strconv.Itoa(r.MaxPly))
	}
	if len(opts) == 0 {
		return "kalah"
	}
	return "kalah:" + strings.Join(opts, ",")
}

// ParseRules reads the options of a spec string after "kalah:", comma
// separated key=value pairs: houses=1..8, seeds=1..10,
// capture=opposite|empty|none, plies=0..1000; options not given keep
// Default's. It refuses an unknown key, a repeated one, and a value out of
// range, naming it.
func ParseRules(opts string) (Rules, error) {
	r := Default
	if strings.TrimSpace(opts) == "" {
		return r, nil
	}
	kvs, err := env.ParseOptions(opts)
	if err != nil {
		return r, fmt.Errorf("kalah: %w", err)
	}
	for _, kv := range kvs {
		k, v := kv.Key, kv.Value
		var err error
		switch k {
		case "houses":
			r.Houses, err = strconv.Atoi(v)
		case "seeds":
			r.Seeds, err = strconv.Atoi(v)
		case "plies":
			r.MaxPly, err = strconv.Atoi(v)
		case "capture":
			switch v {
			case "opposite":
				r.Capture = Opposite
			case "empty":
				r.Capture = Empty
			case "none":
				r.Capture = None
			default:
				return r, fmt.Errorf("kalah: capture=%q: want opposite, empty or none", v)
			}
		default:
			return r, fmt.Errorf("kalah: unknown option %q (want houses, seeds, capture, plies)", k)
		}
		if err != nil {
			return r, fmt.Errorf("kalah: %s=%q: not a number", k, v)
		}
	}
	return r, r.Validate()
}

// NewSpec returns the spec of a Kalah game of rules r named name (not
// registered: Lookup registers variants by Rules.Name). It panics on rules
// out of range.
func NewSpec(name string, r Rules) *env.Spec {
	if err := r.Validate(); err != nil {
		panic(err)
	}
	spec := &env.Spec{
		Name: name, Title: title(r), Pits: r.Houses, NumActions: r.Houses,
		Stones: 2 * r.Houses * r.Seeds, ObsLen: obsLen(r.Houses), ObsVersion: name + "/1",
		Facts: factsOf(r),
	}
	spec.New = func() env.State { return New(spec, r) }
	spec.Parse = func(s string) (env.State, error) {
		b, err := Parse(spec, s)
		if err != nil {
			return nil, err
		}
		return b, nil
	}
	return spec
}

// title names the rules for people: "Kalah (6 houses, 4 seeds)".
func title(r Rules) string {
	t := fmt.Sprintf("Kalah (%d houses, %d seeds", r.Houses, r.Seeds)
	switch r.Capture {
	case Empty:
		t += ", empty capture"
	case None:
		t += ", no capture"
	}
	if r.MaxPly > 0 {
		t += fmt.Sprintf(", %d plies", r.MaxPly)
	}
	return t + ")"
}

// Spec is the standard game, Kalah(6,4), registered as "kalah".
var Spec = NewSpec("kalah", Default)

func init() {
	env.Register(Spec)
	env.RegisterFamily("kalah", func(opts string) (*env.Spec, error) {
		r, err := ParseRules(opts)
		if err != nil {
			return nil, err
		}
		if r == Default {
			return Spec, nil
		}
		return NewSpec(r.Name(), r), nil
	})
}
