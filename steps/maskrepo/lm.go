package maskrepo

import (
	"context"
	"fmt"

	"github.com/osbench/osbench/plugins/lm"
	"github.com/osbench/osbench/plugins/mask"
)

// LMMasker is the masker name that asks a language model; it needs the
// manifest's lm settings, so this step builds it.
const LMMasker = "lm"

// MaskerNames lists every name a manifest's `masker` may use.
func MaskerNames() []string { return append(mask.Names(), LMMasker) }

// withFallback masks with the model and, for a file where its answer does
// not hold (after the model's own retry), with the rules masker, recording
// that it did.
type withFallback struct {
	model, rules mask.Masker
	name         string
}

func (f withFallback) Mask(ctx context.Context, in mask.Input) (mask.Output, error) {
	out, err := f.model.Mask(ctx, in)
	if err == nil {
		return out, nil
	}
	if ctx.Err() != nil {
		return out, err
	}
	out, rerr := f.rules.Mask(ctx, in)
	if rerr != nil {
		return out, fmt.Errorf("%s failed (%v) and the rules masker too: %w", f.name, err, rerr)
	}
	out.Actions = append(out.Actions, mask.Action{Kind: "fallback", Detail: fmt.Sprintf("%s: %v; rules masker used", f.name, err)})
	return out, nil
}

// newMasker returns the masker named by cfg.
func newMasker(cfg Config) (mask.Masker, error) {
	if cfg.Masker != LMMasker {
		m, ok := mask.Lookup(cfg.Masker)
		if !ok {
			return nil, fmt.Errorf("unknown masker %q (known: %v)", cfg.Masker, MaskerNames())
		}
		return m, nil
	}
	lmCfg, err := lm.ConfigFromSettings(cfg.LM)
	if err != nil {
		return nil, err
	}
	p, err := lm.NewProvider(lmCfg)
	if err != nil {
		return nil, err
	}
	model, err := lm.NewMasker(lmCfg, p)
	if err != nil {
		return nil, err
	}
	rules, _ := mask.Lookup("rules")
	return withFallback{model: model, rules: rules, name: "lm:" + lmCfg.Provider + "/" + lmCfg.Model}, nil
}
