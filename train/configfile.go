package train

import (
	"bytes"
	"fmt"
	"os"

	"go.yaml.in/yaml/v3"
)

// LoadConfig reads a config file (configs/*.yaml, a run folder's
// config.yaml) strictly over DefaultConfig: an unknown key or a wrong type
// is an error naming the line and the field. It neither resolves nor
// validates the result.
func LoadConfig(path string) (Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return DefaultConfig(), fmt.Errorf("train: config: %w", err)
	}
	cfg, err := DecodeConfig(b)
	if err != nil {
		return cfg, fmt.Errorf("train: config %s: %w", path, err)
	}
	return cfg, nil
}

// DecodeConfig decodes YAML strictly over DefaultConfig, as LoadConfig.
func DecodeConfig(b []byte) (Config, error) {
	cfg := DefaultConfig()
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil {
		return cfg, err
	}
	return cfg, nil
}

// saveConfig writes cfg as the run folder's config.yaml, which LoadConfig
// reads back.
func saveConfig(d Dir, cfg Config) error {
	b, err := yaml.Marshal(cfg)
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	return writeFile(d.Config(), b)
}
