type Größe = { wert: number; einheit: "cm" | "m" };
const länge: Größe = { wert: 12, einheit: "cm" };
const 名前: string = "テスト";
const 𝑓 = (x: number): number => x * 2;
const emoji: "😀" | "🙂" = "😀";
[länge.wert, 名前.length, 𝑓(4), emoji]
