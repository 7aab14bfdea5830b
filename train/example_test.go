package train_test

import (
	"fmt"

	"kumalak/train"
)

// ExampleLoadConfig reads a shipped config over the defaults, strictly,
// and resolves and validates it as kumalak train does.
func ExampleLoadConfig() {
	cfg, err := train.LoadConfig("../configs/tiny.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := cfg.Resolve(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(cfg.Game, cfg.Seed, cfg.Validate())
	_, err = train.DecodeConfig([]byte("seeds: 7\n"))
	fmt.Println(err)
	// Output:
	// togyz 7 <nil>
	// yaml: unmarshal errors:
	//   line 1: field seeds not found in type train.Config
}
