// expect: {"result":{"en":"1,234,567.891","de":"1.234.567,891","percent":"23.5%","compact":"1,234.00"}}
const n = 1234567.891;
return {
  en: new Intl.NumberFormat("en-US").format(n),
  de: new Intl.NumberFormat("de-DE").format(n),
  percent: new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 1 }).format(0.2345),
  compact: (1234).toLocaleString("en-US", { minimumFractionDigits: 2 }),
};
