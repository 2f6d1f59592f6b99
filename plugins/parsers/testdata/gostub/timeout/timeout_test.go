package timeout

import (
	"testing"
	"time"
)

func TestQuick(t *testing.T) {}

func TestHangs(t *testing.T) {
	t.Run("forever", func(t *testing.T) { time.Sleep(time.Hour) })
}

func TestNeverReached(t *testing.T) {}
