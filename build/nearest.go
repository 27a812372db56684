package main

import (
	"fmt"
	"strings"
)

// nearest says which of names a mistyped name most likely meant, or lists
// them when none is close.
func nearest(name string, names []string) string {
	best, dist := "", len(name)/3+2
	for _, n := range names {
		if d := editDistance(strings.ToLower(name), strings.ToLower(n)); d < dist {
			best, dist = n, d
		}
	}
	if best != "" {
		return fmt.Sprintf("did you mean %q?", best)
	}
	return "want one of " + strings.Join(names, ", ")
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
