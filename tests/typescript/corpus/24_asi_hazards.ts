let total = 0
type Unit = "cm" | "m"
;[1, 2, 3].forEach((n) => (total += n))
interface Box { w: number }
const area = (b: Box) => b.w * b.w
let label: string
;(label = "done")
const parts = [total, area({ w: 3 }) as number]
;`${label}`.length
const r = parts as number[]
;(r as number[]).push(label.length)
r
