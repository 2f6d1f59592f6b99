//go:build !unix

package agentsolve

const oNoFollow = 0
