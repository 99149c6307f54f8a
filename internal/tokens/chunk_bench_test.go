package tokens

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// BenchmarkCountPathological counts 64 KiB and 256 KiB of " \n", the input
// on which the library's regexp alone is quadratic: with the text cut into
// bounded chunks, ns/op grows about fourfold from one size to the next, not
// sixteenfold.
func BenchmarkCountPathological(b *testing.B) {
	for _, size := range []int{64 << 10, 256 << 10} {
		text := strings.Repeat(" \n", size/2)
		b.Run(fmt.Sprintf("%dKiB", size>>10), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				if _, err := count(context.Background(), O200kBase, text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
