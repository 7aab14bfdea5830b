// The site's settings. kumalak serve serves this file as it is: no
// settings, and the page asks the server's HTTP API. kumalak web writes its
// own into the static site it makes, naming the bot's files and games, and
// the page then runs the bot in a Web Worker (static.js, worker.js).
var KUMALAK_SITE = null;
