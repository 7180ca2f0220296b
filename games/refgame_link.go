package games

// Games of referee programs (--game referee:COMMAND, --game FILE.json)
// resolve through package refgame, which registers itself.
import _ "gauntlet/games/refgame"
