package executors

// The built-in executors are registered here, in one explicit list, rather
// than by an init function in each implementation file: the set an osbench
// binary ships is then visible at a glance, and adding one is a one-line
// change that a reviewer cannot miss.
func init() {
	Register(LocalName, func(cfg Config) (Executor, error) { return NewLocal(cfg) })
	Register(WineName, func(cfg Config) (Executor, error) { return NewWine(cfg) })
}
