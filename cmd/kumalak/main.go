// Command kumalak trains, measures and plays agents for Togyz Kumalak and
// Turkish Mangala. Each subcommand lives in its own file; this file lists
// their constructors, builds the root and maps errors to exit codes.
package main

import (
	"errors"
	"fmt"
	"os"
	"runtime/pprof"
	"strings"

	"github.com/spf13/cobra"

	"kumalak/solve"
)

// commands are the constructors of every subcommand, each in the file of
// its name beside this one.
var commands = []func() *cobra.Command{
	newAnalyzeCmd, newArenaCmd, newEngineCmd, newExportCmd, newInfoCmd, newPerftCmd,
	newPlayCmd, newReplayCmd, newServeCmd, newShowCmd, newSolveCmd, newTablebaseCmd,
	newTournamentCmd, newTrainCmd, newWebCmd, newWorkerCmd, newCredentialsCmd,
}

// usageError marks bad input from the user: exit status 2.
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

// badInput wraps err as a usage error (exit status 2) prefixed with the
// command name, e.g. "replay: move 14 (pit 5): pit is empty".
func badInput(cmd string, format string, args ...any) error {
	return usageError{fmt.Errorf(cmd+": "+format, args...)}
}

// reason returns what a package's bad-value error (a ValueError or an
// InputError: its Why) says without the package's name, for badInput adds
// the command's; any other error's text.
func reason(err error) string {
	if e, ok := errors.AsType[interface {
		error
		Why() string
	}](err); ok {
		return e.Why()
	}
	return err.Error()
}

// The default tablebase's first build draws a bar: set once, before any
// command runs (tests build many roots at once).
func init() { solve.CacheBar = solve.BuildBar }

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "kumalak",
		Short:         "Self-play reinforcement learning for Togyz Kumalak and Turkish Mangala",
		Long:          "kumalak trains policy/value networks by self-play MCTS for togyz, mangala, mangala-kale and kalah,\nmeasures their strength in an arena, and serves them as a playing bot.",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError{fmt.Errorf("%s: %w", c.Name(), err)}
	})
	for _, mk := range commands {
		root.AddCommand(mk())
	}
	var profile string
	var stopProfile func()
	root.PersistentFlags().StringVar(&profile, "cpuprofile", "", "write a CPU profile of the command to this file (go tool pprof)")
	root.PersistentPreRunE = func(c *cobra.Command, _ []string) error {
		if profile == "" {
			return nil
		}
		f, err := os.Create(profile)
		if err != nil {
			return badInput(c.Name(), "--cpuprofile: %v", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return fmt.Errorf("%s: --cpuprofile: %w", c.Name(), err)
		}
		stopProfile = func() { pprof.StopCPUProfile(); f.Close() }
		return nil
	}
	root.PersistentPostRun = func(*cobra.Command, []string) {
		if stopProfile != nil {
			stopProfile()
		}
	}
	return root
}

func main() {
	root := newRoot()
	root.SetArgs(os.Args[1:])
	os.Exit(run(root))
}

// run executes root and returns the exit status: 0 on success, 2 for bad
// input, 1 for any other failure.
func run(root *cobra.Command) int {
	err := root.Execute()
	if err == nil {
		return 0
	}
	fmt.Fprintln(root.ErrOrStderr(), err)
	var u usageError
	if errors.As(err, &u) || strings.HasPrefix(err.Error(), "unknown command") {
		return 2
	}
	return 1
}
