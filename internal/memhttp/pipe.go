package memhttp

import (
	"sync"
)

// pipeLimit bounds the bytes a pipe holds: a handler that writes more than
// its client has read blocks, as it would on a socket whose buffers are
// full.
const pipeLimit = 32 << 10

// pipe carries a response body from the handler's goroutine to the
// client's. Unlike io.Pipe it buffers up to pipeLimit bytes, so a write
// returns once its bytes are queued, and a blocked write gives up when its
// write deadline passes. Waits are on channels only, which a
// testing/synctest bubble counts as durably blocked.
type pipe struct {
	mu   sync.Mutex
	buf  []byte // guarded by mu; queued bytes, at most pipeLimit
	rerr error  // guarded by mu; what reads return once buf is empty: io.EOF at a clean end
	werr error  // guarded by mu; what writes return: the reader left or the transport closed

	readable chan struct{} // has a token when the reader may have something to do
	writable chan struct{} // has a token when the writer may have something to do
}

func newPipe() *pipe {
	return &pipe{readable: make(chan struct{}, 1), writable: make(chan struct{}, 1)}
}

// wake leaves a token in ch without blocking.
func wake(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// write queues all of b, waiting for room while the reader catches up. It
// fails once the reader has left, or with errDeadline once expired is
// closed.
func (p *pipe) write(b []byte, expired <-chan struct{}) (int, error) {
	n := 0
	for {
		select {
		case <-expired:
			return n, errDeadline
		default:
		}
		p.mu.Lock()
		if p.werr != nil {
			err := p.werr
			p.mu.Unlock()
			return n, err
		}
		if p.rerr != nil {
			p.mu.Unlock()
			return n, errWriteAfterEnd
		}
		room := pipeLimit - len(p.buf)
		if room > 0 && len(b) > 0 {
			k := min(room, len(b))
			p.buf = append(p.buf, b[:k]...)
			b = b[k:]
			n += k
			wake(p.readable)
		}
		p.mu.Unlock()
		if len(b) == 0 {
			return n, nil
		}
		select {
		case <-p.writable:
		case <-expired:
			return n, errDeadline
		}
	}
}

// read takes queued bytes, waiting until there are some or the body ends.
func (p *pipe) read(b []byte) (int, error) {
	for {
		p.mu.Lock()
		if len(p.buf) > 0 {
			n := copy(b, p.buf)
			p.buf = p.buf[n:]
			if len(p.buf) == 0 {
				p.buf = nil
			}
			wake(p.writable)
			p.mu.Unlock()
			return n, nil
		}
		if p.rerr != nil {
			err := p.rerr
			p.mu.Unlock()
			return 0, err
		}
		p.mu.Unlock()
		<-p.readable
	}
}

// closeWrite ends the body: reads return the queued bytes, then err
// (io.EOF for a clean end, io.ErrUnexpectedEOF for an aborted one).
func (p *pipe) closeWrite(err error) {
	p.mu.Lock()
	if p.rerr == nil {
		p.rerr = err
	}
	p.mu.Unlock()
	wake(p.readable)
	wake(p.writable)
}

// fail breaks the pipe from either side: queued bytes are dropped, reads
// return readErr and writes writeErr, unless the body had already ended.
func (p *pipe) fail(readErr, writeErr error) {
	p.mu.Lock()
	if p.rerr == nil || len(p.buf) > 0 {
		p.rerr = readErr
	}
	p.buf = nil
	if p.werr == nil {
		p.werr = writeErr
	}
	p.mu.Unlock()
	wake(p.readable)
	wake(p.writable)
}
