type Reducer<S, A> = (state: S, action: A) => S;
type Action = { type: "inc"; by: number } | { type: "reset" };
const reducer: Reducer<number, Action> = (state, action) => {
  switch (action.type) {
    case "inc":
      return state + action.by;
    case "reset":
      return 0;
  }
};
const actions: Action[] = [{ type: "inc", by: 2 }, { type: "inc", by: 3 }, { type: "reset" }, { type: "inc", by: 1 }];
const history: number[] = [];
actions.reduce((s: number, a: Action): number => {
  const next = reducer(s, a);
  history.push(next);
  return next;
}, 0);
history
