package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/osbench/osbench/schemas"
)

func newSchemaCommand(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "schema [NAME]",
		Short: "Print the JSON Schema of an artifact (no NAME: list them)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				fmt.Fprintln(cmd.OutOrStdout(), strings.Join(schemas.Names(), "\n"))
				return nil
			}
			b, ok := schemas.Schema(args[0])
			if !ok {
				return usageError{fmt.Errorf("no schema %q (known: %s)", args[0], strings.Join(schemas.Names(), ", "))}
			}
			_, err := cmd.OutOrStdout().Write(b)
			return err
		},
	}
}
