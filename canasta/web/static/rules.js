// Old links to /static/rules.html?variant=<name> go to the server's rendered page /rules/<name>.
const name = new URLSearchParams(location.search).get("variant") || "classic";
location.replace(`/rules/${encodeURIComponent(name)}`);
