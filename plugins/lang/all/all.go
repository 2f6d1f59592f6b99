// Package all registers every built-in language with plugins/lang: import
// it for its side effect wherever a file's language is looked up.
package all

import (
	_ "github.com/osbench/osbench/plugins/lang/cfamily"
	_ "github.com/osbench/osbench/plugins/lang/csharp"
	_ "github.com/osbench/osbench/plugins/lang/golang"
	_ "github.com/osbench/osbench/plugins/lang/rust"
)
