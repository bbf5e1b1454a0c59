type Method = "get" | "post";
type Route = `/${string}`;
type Key = `${Method}:${Route}`;
const routes: Record<Key, number> = { "get:/a": 1, "post:/b": 2 } as Record<Key, number>;
const key = (m: Method, r: Route): Key => `${m}:${r}`;
[routes[key("get", "/a")], key("post", "/b")]
