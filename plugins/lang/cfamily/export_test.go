package cfamily

// CountDirectives counts the #if groups a file opens and closes, for the
// external tests.
func CountDirectives(src []byte) (opens, closes int) {
	for _, d := range lexC(src).directives {
		switch d.name {
		case "if", "ifdef", "ifndef":
			opens++
		case "endif":
			closes++
		}
	}
	return opens, closes
}
