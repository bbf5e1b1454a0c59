// expect: {"result":{"sorted":["Äpfel","apple","éclair","eclair","zebra","Zoo"],"equal":true,"localeCompare":-1}}
const words = ["zebra", "Äpfel", "apple", "Zoo", "éclair", "eclair"];
const collator = new Intl.Collator("en", { sensitivity: "base" });
return {
  sorted: [...words].sort(collator.compare),
  equal: collator.compare("eclair", "éclair") === 0,
  localeCompare: "a".localeCompare("b"),
};
