// expect: {"result":{"good":true,"broken":false,"fixed":true}}
const good = "Ada Lovelace ✓";
const broken = "abc\uD800def";
return {
  good: good.isWellFormed(),
  broken: broken.isWellFormed(),
  fixed: broken.toWellFormed() === "abc\uFFFDdef",
};
