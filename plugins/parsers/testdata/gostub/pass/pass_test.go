package pass

import (
	"fmt"
	"testing"
)

func TestAdd(t *testing.T) {
	if Add(2, 3) != 5 {
		t.Fatal("2+3 != 5")
	}
}

func TestLogs(t *testing.T) {
	t.Log("a log line that mentions panic: but is only a log")
}

func BenchmarkAdd(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Add(i, i)
	}
}

func ExampleAdd() {
	fmt.Println(Add(1, 1))
	// Output: 2
}
