package train

import (
	"fmt"
	"os"
	"path/filepath"

	"kumalak/cluster"
	"kumalak/data"
	"kumalak/train/ladder"
)

// Dir is a run folder. It is the one place that names the files of a run
// (the table in the package documentation lists them); everything else,
// the kumalak command included, asks it for paths.
type Dir string

// Names of the files and folders of a run folder.
const (
	configFile  = "config.yaml"
	stateFile   = "state.json"
	metricsFile = "metrics.jsonl"
	bestFile    = "best.kmodel"
	latestFile  = "latest.kmodel"
	exportFile  = "export.kmodel"
	anchorsFile = "anchors.json"
	lossPlot    = "loss.png"
	eloPlot     = "elo.png"
	mistakePlot = "mistakes.png"
	speedPlot   = "speed.png"
	shardsDir   = "shards"
	modelsDir   = "models"
	gamesDir    = "games"
	clusterDir  = "cluster"
	natsDir     = "nats"
)

// Kinds of evaluation games, each saved to its own file per iteration
// (Dir.Games).
const (
	GateGames     = "gate"     // the candidate against the best network
	BaselineGames = "baseline" // the best network against the fixed baselines
	LadderGames   = "ladder"   // the best network against the ladder's rungs, and a new rung's rating games
)

// String returns the folder's path.
func (d Dir) String() string { return string(d) }

func (d Dir) file(name ...string) string {
	return filepath.Join(append([]string{string(d)}, name...)...)
}

// Config is the run's resolved config, written when the run starts;
// a resumed run reads it back.
func (d Dir) Config() string { return d.file(configFile) }

// State is the checkpoint, written last in every iteration.
func (d Dir) State() string { return d.file(stateFile) }

// Metrics is the log of the completed iterations, one JSON line each.
func (d Dir) Metrics() string { return d.file(metricsFile) }

// Best is the network self-play and gating use.
func (d Dir) Best() string { return d.file(bestFile) }

// Latest is the network the optimizer continues from.
func (d Dir) Latest() string { return d.file(latestFile) }

// Export is where `kumalak export` writes the best network with its card
// unless told otherwise.
func (d Dir) Export() string { return d.file(exportFile) }

// Anchors holds the baselines' ratings, measured once per run, and the
// ladder: the rungs' ratings and models' checksums.
func (d Dir) Anchors() string { return d.file(anchorsFile) }

// LossPlot is the chart of the losses against training time.
func (d Dir) LossPlot() string { return d.file(lossPlot) }

// EloPlot is the chart of the network's strength against the baselines.
func (d Dir) EloPlot() string { return d.file(eloPlot) }

// SpeedPlot is the chart of self-play's rates against training time.
func (d Dir) SpeedPlot() string { return d.file(speedPlot) }

// MistakePlot is the chart of the network's mistake rate in tablebase
// positions, drawn when the run has a tablebase.
func (d Dir) MistakePlot() string { return d.file(mistakePlot) }

// Shards is the folder of the self-play sample shards.
func (d Dir) Shards() string { return d.file(shardsDir) }

// Shard is the shard of iteration it's self-play samples.
func (d Dir) Shard(it int) string { return d.file(shardsDir, data.ShardName(it)) }

// Optimizer is the trainer's state at the end of iteration it: Adam's
// moments, the step count and schedule state, and the training-only score
// head (learn.Checkpoint). Written in every checkpoint before the state;
// the one of the iteration before is deleted once the state is written.
func (d Dir) Optimizer(it int) string { return d.file(fmt.Sprintf("optimizer-%04d.kopt", it)) }

// Ladder is the folder of the ladder's rungs: frozen networks, each
// named in Anchors with its rating.
func (d Dir) Ladder() string { return d.file(ladder.Dir) }

// Models is the folder of the candidate networks.
func (d Dir) Models() string { return d.file(modelsDir) }

// Model is the candidate network trained in iteration it.
func (d Dir) Model(it int) string { return d.file(modelsDir, fmt.Sprintf("iter-%04d.kmodel", it)) }

// GamesDir is the folder of the evaluation games' records.
func (d Dir) GamesDir() string { return d.file(gamesDir) }

// Games holds the records of iteration it's evaluation games of one kind,
// GateGames or BaselineGames, one JSON line per game.
func (d Dir) Games(it int, kind string) string {
	return d.file(gamesDir, fmt.Sprintf("iter-%04d-%s.jsonl", it, kind))
}

// Cluster is the folder of the run's NATS side: its run id ("run-id"),
// the ledger of worker batches per iteration ("batches-NNNNNN.txt") and
// the roster (ClusterRoster), all named by package cluster.
func (d Dir) Cluster() string { return d.file(clusterDir) }

// ClusterRoster is the roster of the workers' credentials: their public
// keys, issued and revoked by kumalak worker-credentials, which the
// embedded server admits (cluster.RosterFile).
func (d Dir) ClusterRoster() string { return cluster.RosterFile(d.Cluster()) }

// NATS is the embedded NATS server's JetStream storage.
func (d Dir) NATS() string { return d.file(natsDir) }

// Exists reports whether d holds a run, that is a checkpoint.
func (d Dir) Exists() (bool, error) {
	_, err := os.Stat(d.State())
	switch {
	case err == nil:
		return true, nil
	case os.IsNotExist(err):
		return false, nil
	}
	return false, fmt.Errorf("train: %w", err)
}

// mkdirs makes the folder and its subfolders.
func (d Dir) mkdirs() error {
	for _, p := range []string{string(d), d.Shards(), d.Models(), d.GamesDir()} {
		if err := os.MkdirAll(p, 0o755); err != nil {
			return fmt.Errorf("train: %w", err)
		}
	}
	return nil
}

// DefaultDir is the run folder of a game when none is named: runs/<game>.
func DefaultDir(game string) Dir { return Dir(filepath.Join("runs", game)) }
