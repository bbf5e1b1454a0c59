// The model profile's globals as a program uses them. Returns the failures (empty: all pass).
// The worker's gtest runs it in the model profile (docs/worker.md, "The model profile's
// globals"); every check names what it expected.
async () => {
  const failures = [];
  const check = (name, condition) => {
    if (!condition) failures.push(name);
  };
  const same = (name, actual, expected) => {
    const a = JSON.stringify(actual);
    const e = JSON.stringify(expected);
    if (a !== e) failures.push(`${name}: got ${a}, expected ${e}`);
  };
  const throwsLike = (name, fn, errorName, code) => {
    try {
      fn();
      failures.push(`${name}: did not throw`);
    } catch (error) {
      if (error === null || typeof error !== 'object' || error.name !== errorName ||
          (code !== undefined && error.code !== code)) {
        failures.push(`${name}: threw ${error && error.name} (${error && error.code}), expected ${errorName}`);
      }
    }
  };

  // Globals exist, are shaped as web IDL has them.
  for (const name of ['URL', 'URLSearchParams', 'TextEncoder', 'TextDecoder', 'atob', 'btoa',
                      'DOMException', 'structuredClone', 'crypto', 'console']) {
    const desc = Object.getOwnPropertyDescriptor(globalThis, name);
    check(`${name} is a global`, desc !== undefined && desc.writable && !desc.enumerable &&
                                 desc.configurable);
  }

  // URL
  const url = new URL('https://user:pw@B\u00fccher.example:8080/a/./b/../c?x=1&y=2#frag');
  same('URL components', [url.protocol, url.username, url.password, url.hostname, url.port,
                          url.pathname, url.search, url.hash, url.origin],
       ['https:', 'user', 'pw', 'xn--bcher-kva.example', '8080', '/a/c', '?x=1&y=2', '#frag',
        'https://xn--bcher-kva.example:8080']);
  same('URL relative', new URL('../d?q#h', 'http://h/a/b/c').href, 'http://h/a/d?q#h');
  same('URL IPv4 forms', [new URL('http://0x7f.1/').host, new URL('http://4294967295/').host],
       ['127.0.0.1', '255.255.255.255']);
  same('URL IPv6', new URL('http://[1:0:0:2::3:0]/').host, '[1::2:0:0:3:0]');
  same('URL file', new URL('file:///C|/x/../y').href, 'file:///C:/y');
  same('URL full-width and sharp s', [new URL('http://\uff25\uff38.com').host,
                                      new URL('http://fa\u00df.de').host],
       ['ex.com', 'xn--fa-hia.de']);
  throwsLike('URL invalid', () => new URL('http://a b/'), 'TypeError');
  throwsLike('URL overflow', () => new URL('http://4294967296/'), 'TypeError');
  throwsLike('URL no base', () => new URL('/relative'), 'TypeError');
  same('URL.canParse', [URL.canParse('x', 'http://a'), URL.canParse('x')], [true, false]);
  same('URL.parse', [URL.parse('nope'), URL.parse('x', 'http://a/').href], [null, 'http://a/x']);
  same('URL toJSON', JSON.stringify({ u: new URL('http://a/b') }), '{"u":"http://a/b"}');
  const set = new URL('http://example.com/');
  set.protocol = 'https';
  set.host = 'other.org:99';
  set.pathname = 'p q';
  set.search = 'k=v w';
  set.hash = 'h';
  same('URL setters', set.href, 'https://other.org:99/p%20q?k=v%20w#h');
  set.port = '443';
  same('URL default port dropped', set.host, 'other.org');
  set.searchParams.append('n', '1 2');
  same('searchParams writes the URL', set.search, '?k=v+w&n=1+2');
  set.search = '?z=9';
  same('the URL writes searchParams', [...set.searchParams], [['z', '9']]);

  // URLSearchParams
  const params = new URLSearchParams('?b=2&a=1&a=3&c=%20x+y');
  same('params get', [params.get('a'), params.getAll('a'), params.get('c'), params.get('z')],
       ['1', ['1', '3'], ' x y', null]);
  same('params has with value', [params.has('a', '3'), params.has('a', '4')], [true, false]);
  params.delete('a', '1');
  params.set('b', '\u00fc');
  params.sort();
  same('params sort and toString', [params.toString(), params.size], ['a=3&b=%C3%BC&c=+x+y', 3]);
  same('params from record', new URLSearchParams({ x: '1', y: '&' }).toString(), 'x=1&y=%26');
  same('params from pairs', new URLSearchParams([['x', '1'], ['x', '2']]).getAll('x'), ['1', '2']);
  const keys = [];
  params.forEach((value, key) => keys.push(key));
  same('params forEach', keys, ['a', 'b', 'c']);
  same('params iteration', [...params.keys()], ['a', 'b', 'c']);

  // TextEncoder, TextDecoder
  const bytes = new TextEncoder().encode('a\u00fc\u20ac\ud83d\ude00\ud800');
  same('TextEncoder', [...bytes], [0x61, 0xc3, 0xbc, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80,
                                   0xef, 0xbf, 0xbd]);
  const into = new Uint8Array(4);
  same('encodeInto', new TextEncoder().encodeInto('\u00fc\u20ac', into), { read: 1, written: 2 });
  same('TextDecoder', new TextDecoder().decode(bytes), 'a\u00fc\u20ac\ud83d\ude00\ufffd');
  same('TextDecoder maximal subpart', new TextDecoder().decode(new Uint8Array([0xf0, 0x9f, 0x41, 0xc3])),
       '\ufffdA\ufffd');
  throwsLike('TextDecoder fatal', () => new TextDecoder('utf-8', { fatal: true })
    .decode(new Uint8Array([0xff])), 'TypeError');
  const stream = new TextDecoder();
  same('TextDecoder stream', stream.decode(new Uint8Array([0xe2, 0x82]), { stream: true }) +
       stream.decode(new Uint8Array([0xac])), '\u20ac');
  same('TextDecoder BOM', [new TextDecoder().decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x61])),
                           new TextDecoder('utf-8', { ignoreBOM: true })
                             .decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]))], ['a', '\ufeffa']);
  same('TextDecoder utf-16le and latin1', [
    new TextDecoder('utf-16le').decode(new Uint8Array([0x61, 0, 0x3d, 0xd8, 0, 0xde])),
    new TextDecoder('latin1').decode(new Uint8Array([0x80, 0xe9]))], ['a\ud83d\ude00', '\u20ac\u00e9']);
  throwsLike('TextDecoder unknown label', () => new TextDecoder('klingon'), 'RangeError');

  // atob, btoa, DOMException
  same('btoa', btoa('hello\u00ff'), 'aGVsbG//');
  same('atob forgiving', atob(' aGVs bG8= '), 'hello');
  throwsLike('btoa > 0xFF', () => btoa('\u0100'), 'InvalidCharacterError', 5);
  throwsLike('atob invalid', () => atob('a'), 'InvalidCharacterError', 5);
  const domException = new DOMException('m', 'SyntaxError');
  same('DOMException', [domException.name, domException.message, domException.code,
                        domException instanceof Error, String(domException)],
       ['SyntaxError', 'm', 12, true, 'SyntaxError: m']);

  // structuredClone
  const date = new Date(1e12);
  const cyclic = { date, re: /a+/gi, map: new Map([[1, { one: 1 }]]), set: new Set(['s']),
                   typed: new Uint16Array([1, 2]), big: 12n, nested: [1, [2]] };
  cyclic.self = cyclic;
  const clone = structuredClone(cyclic);
  check('structuredClone copies', clone !== cyclic && clone.self === clone);
  same('structuredClone Date', clone.date instanceof Date && clone.date.getTime(), 1e12);
  same('structuredClone RegExp', [clone.re instanceof RegExp, clone.re.source, clone.re.flags],
       [true, 'a+', 'gi']);
  same('structuredClone Map and Set', [clone.map.get(1), [...clone.set]], [{ one: 1 }, ['s']]);
  same('structuredClone typed array', [clone.typed instanceof Uint16Array, [...clone.typed]],
       [true, [1, 2]]);
  same('structuredClone BigInt and arrays', [typeof clone.big, clone.nested], ['bigint', [1, [2]]]);
  throwsLike('structuredClone function', () => structuredClone({ f() {} }), 'DataCloneError', 25);
  throwsLike('structuredClone symbol', () => structuredClone(Symbol('s')), 'DataCloneError', 25);
  throwsLike('structuredClone WeakMap', () => structuredClone(new WeakMap()), 'DataCloneError', 25);
  throwsLike('structuredClone no argument', () => structuredClone(), 'TypeError');
  let getterRan = false;
  try {
    structuredClone({ get boom() { getterRan = true; throw new RangeError('mine'); } });
    failures.push('structuredClone getter: did not throw');
  } catch (error) {
    check('structuredClone passes a getter\'s own error through',
          getterRan && error instanceof RangeError && error.message === 'mine');
  }

  // crypto
  const uuids = new Set();
  for (let i = 0; i < 100; i++) uuids.add(crypto.randomUUID());
  check('randomUUID unique', uuids.size === 100);
  for (const uuid of uuids) {
    check(`randomUUID format ${uuid}`,
          /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(uuid));
  }
  const random = new Uint32Array(64);
  check('getRandomValues returns its argument', crypto.getRandomValues(random) === random);
  check('getRandomValues fills', random.some((x) => x !== 0));
  check('getRandomValues BigInt64Array', crypto.getRandomValues(new BigInt64Array(2)).length === 2);
  check('getRandomValues 65,536 bytes', crypto.getRandomValues(new Uint8Array(65536)).length === 65536);
  throwsLike('getRandomValues Float64Array', () => crypto.getRandomValues(new Float64Array(1)),
             'TypeMismatchError', 17);
  throwsLike('getRandomValues DataView', () => crypto.getRandomValues(new DataView(new ArrayBuffer(1))),
             'TypeMismatchError', 17);
  throwsLike('getRandomValues > 65,536 bytes', () => crypto.getRandomValues(new Uint8Array(65537)),
             'QuotaExceededError', 22);
  throwsLike('getRandomValues non-view', () => crypto.getRandomValues([1]), 'TypeError');
  check('no crypto.subtle', crypto.subtle === undefined);

  // console: never throws, whatever it is given
  const hostile = { toJSON() { throw new Error('no'); } };
  const cycle = { a: 1 };
  cycle.me = cycle;
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  try {
    console.log('plain', 1, true, null, undefined, 12n, Symbol('s'), () => {}, [1, { b: 2 }]);
    console.info('%s is %d years and %o', 'Al', 42.5, { x: 1 }, 'extra');
    console.warn(hostile, cycle, new Map([[1, 2]]), new Set([3]), revoked.proxy);
    console.error(new TypeError('bad'), new DOMException('gone', 'NotFoundError'));
    console.debug(Object.create(null), { get g() { throw new Error('getter'); } });
    console.dir({ d: 1 });
    console.table([{ a: 1 }]);
    console.trace('here');
    console.assert(false, 'assertion %s', 'message');
    console.assert(true, 'never');
    console.group('g');
    console.log('inside');
    console.groupEnd();
    console.count();
    console.count('x');
    console.countReset();
    console.time('t');
    console.timeLog('t', 'lap');
    console.timeEnd('t');
    console.clear();
  } catch (error) {
    failures.push(`console threw ${error}`);
  }
  return failures;
}
