// xpgn serve: arrow keys step through a game (the buttons are plain
// links, so every page works without this script).
document.addEventListener("keydown", function (e) {
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  var t = e.target;
  if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
  var ids = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  var id = ids[e.key];
  if (!id) return;
  var link = document.getElementById(id);
  if (link) {
    e.preventDefault();
    window.location.assign(link.href);
  }
});
