package maskrepo

import (
	"testing"
	"time"
)

func TestCheckTimeout(t *testing.T) {
	tests := []struct {
		set     string
		want    time.Duration
		wantErr bool
	}{
		{"", defaultCheckTimeout, false},
		{"30m0s", 30 * time.Minute, false},
		{"soon", 0, true},
	}
	for _, tt := range tests {
		got, err := checkTimeout(Config{CheckTimeout: tt.set})
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("checkTimeout(%q) = %v, %v; want %v (error %v)", tt.set, got, err, tt.want, tt.wantErr)
		}
	}
}
