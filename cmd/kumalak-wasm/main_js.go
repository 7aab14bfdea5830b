//go:build js && wasm

package main

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"syscall/js"
)

// main builds the bot from its arguments (GAME=SPEC each; see newMux),
// then offers it to the Web Worker (web/worker.js) as three functions of
// the global object and waits for calls:
//
//	kumalakCall(method, path, body, done)  an HTTP API request; done(status, body)
//	kumalakSpeed(game, batch, rows, sims, done)  the speed measurement; done(json)
//
// and reports it is ready by calling kumalakReady(error), error null when
// the bot is built. The calls run one at a time: the worker is one thread.
func main() {
	ready := js.Global().Get("kumalakReady")
	args := os.Args[1:]
	if g := js.Global().Get("kumalakGames"); g.Type() == js.TypeString {
		args = []string{g.String()} // the worker's way: argv holds 12 KB at most, less than the games' cards
	}
	mux, err := newMux(args)
	if err != nil {
		ready.Invoke(err.Error())
		return
	}
	defer mux.Close()
	js.Global().Set("kumalakCall", js.FuncOf(func(_ js.Value, args []js.Value) any {
		method, path, body, done := args[0].String(), args[1].String(), args[2].String(), args[3]
		go func() {
			status, out := serve(mux, method, path, body)
			done.Invoke(status, out)
		}()
		return nil
	}))
	js.Global().Set("kumalakSpeed", js.FuncOf(func(_ js.Value, args []js.Value) any {
		game, batch, rows, sims, done := args[0].String(), args[1].Int(), args[2].Int(), args[3].Int(), args[4]
		go func() {
			sp, err := measure(game, batch, rows, sims)
			if err != nil {
				done.Invoke(js.Null(), err.Error())
				return
			}
			done.Invoke(sp.JSON(), js.Null())
		}()
		return nil
	}))
	ready.Invoke(js.Null())
	select {}
}

// serve answers one API request with the mux.
func serve(h http.Handler, method, path, body string) (int, string) {
	req, err := http.NewRequest(method, path, strings.NewReader(body))
	if err != nil {
		return http.StatusBadRequest, fmt.Sprintf(`{"error":%q,"code":"bad_request"}`, err.Error())
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	w := &recorder{header: http.Header{}, status: http.StatusOK}
	h.ServeHTTP(w, req)
	return w.status, w.body.String()
}

// recorder is the http.ResponseWriter of one call.
type recorder struct {
	header http.Header
	status int
	wrote  bool
	body   strings.Builder
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if !r.wrote {
		r.status, r.wrote = status, true
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	r.wrote = true
	return r.body.Write(b)
}
