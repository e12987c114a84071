// Importing the root module and nothing else, for bench/cli.ts.
import "../mod.ts";
