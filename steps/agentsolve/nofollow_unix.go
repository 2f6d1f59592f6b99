//go:build unix

package agentsolve

import "syscall"

// oNoFollow refuses a link planted in the artifacts dir between the listing
// and the open.
const oNoFollow = syscall.O_NOFOLLOW

// oNonBlock keeps an open of a FIFO planted in the workspace from waiting
// for a writer.
const oNonBlock = syscall.O_NONBLOCK
