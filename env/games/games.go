// Package games registers every kumalak game with env: import it for its
// side effect where games are looked up by name.
package games

import (
	// Each game registers itself in init.
	_ "kumalak/env/kalah"
	_ "kumalak/env/mangala"
	_ "kumalak/env/togyz"
)
