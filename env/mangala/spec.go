package mangala

import "kumalak/env"

// Spec is the classic game, registered as "mangala".
var Spec = &env.Spec{
	Name:       "mangala",
	Title:      "Mangala (classic)",
	Pits:       PitsPerSide,
	NumActions: PitsPerSide,
	Stones:     Stones,
	ObsLen:     ObsLen,
	ObsVersion: "mangala/1",
	Facts:      Facts,
}

// KaleSpec is the castle variant, registered as "mangala-kale".
var KaleSpec = &env.Spec{
	Name:       "mangala-kale",
	Title:      "Mangala with the castle rule (kale)",
	Pits:       PitsPerSide,
	NumActions: PitsPerSide,
	Stones:     Stones,
	ObsLen:     ObsLen,
	ObsVersion: "mangala-kale/1",
	Facts:      KaleFacts,
}

func init() {
	Spec.New = func() env.State { return New(false) }
	Spec.Parse = func(s string) (env.State, error) { return parseState(s, false) }
	KaleSpec.New = func() env.State { return New(true) }
	KaleSpec.Parse = func(s string) (env.State, error) { return parseState(s, true) }
	env.Register(Spec)
	env.Register(KaleSpec)
}

// parseState is Parse returning a nil interface, not a nil *Board, on error.
func parseState(s string, kale bool) (env.State, error) {
	b, err := Parse(s, kale)
	if err != nil {
		return nil, err
	}
	return b, nil
}
