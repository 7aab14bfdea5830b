package web

import _ "kumalak/env/games" // registers the games the tests play
