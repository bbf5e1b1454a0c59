function greet(name: string, greeting?: string, punctuation: string = "!"): string {
  return `${greeting ?? "Hello"}, ${name}${punctuation}`;
}
const shout = (text: string, times?: number) => text.repeat(times ?? 1).toUpperCase();
[greet("Ada"), greet("Bob", "Hi", "?"), shout("ha", 3)]
