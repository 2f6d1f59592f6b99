//go:build !unix

package agentsolve

const oNoFollow = 0

const oNonBlock = 0
