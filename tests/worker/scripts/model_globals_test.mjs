// The model profile's web globals (src/worker/engine/scripts/model_globals.js) against Node.js's
// own URL, URLSearchParams, TextEncoder, TextDecoder, atob, btoa and DOMException, as an oracle.
// The script is loaded in a fresh vm context (only ECMAScript builtins, like the worker's global)
// with its natives shimmed: randomFill by node:crypto, structuredClone by Node's, log captured.
// Run: node --test tests/worker/scripts/model_globals_test.mjs
import assert from 'node:assert/strict';
import { randomFillSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import vm from 'node:vm';

const scriptPath = new URL('../../../src/worker/engine/scripts/model_globals.js', import.meta.url);
const source = readFileSync(scriptPath, 'utf8');

// Where our parser and Node's (ada 2.9, with UTS #46 tables of Unicode 15.1) differ on purpose.
// Each input's outcome is checked against the value here ('failure' or the href) instead.
const KNOWN_DIFFERENCES = new Map([
  // Unicode 16's UTS #46 maps U+1E9E LATIN CAPITAL LETTER SHARP S to U+00DF (before: "ss").
  ['http://\u1E9E.com/', 'http://xn--zca.com/'],
  // Unicode 16's UTS #46 ignores U+180E MONGOLIAN VOWEL SEPARATOR (before: disallowed).
  ['http://\u180e.com/', 'http://.com/'],
  // UTS #46 (since Unicode 15.1): an xn-- label that decodes to ASCII only is an error.
  ['http://xn--abc-.com/', 'failure'],
  ['http://xn--ab-.com/', 'failure'],
  ['http://xn--ss-.com/', 'failure'],
  // CheckBidi: a label of a Bidi domain name (one holding R, AL or AN) must satisfy RFC 5893's
  // rule 1 (start with L, R or AL) and an LTR label rule 5 (no AN); ada skips both here.
  ['http://\u0661.com/', 'failure'],
  ['http://a\u0661.com/', 'failure'],
]);

function makeContext() {
  const logs = [];
  const context = vm.createContext({});
  const install = vm.runInContext(source, context, { filename: 'model_globals.js' });
  const natives = vm.runInContext('({})', context);
  natives.log = (line) => { logs.push(line); };
  natives.randomFill = (view) => { randomFillSync(view); };
  natives.structuredClone = (value, transfer, makeError) => {
    try {
      return structuredClone(value, { transfer });
    } catch (error) {
      if (error && error.name === 'DataCloneError') throw makeError(error.message);
      throw error;
    }
  };
  install(vm.runInContext('globalThis', context), natives);
  return { context, logs, run: (code) => vm.runInContext(code, context) };
}
const { context, logs, run } = makeContext();
const Ours = {
  URL: run('URL'), URLSearchParams: run('URLSearchParams'), TextEncoder: run('TextEncoder'),
  TextDecoder: run('TextDecoder'), atob: run('atob'), btoa: run('btoa'),
  DOMException: run('DOMException'),
};

// Cross-realm values compared by their JSON (deepStrictEqual also compares prototypes).
const plain = (value) => JSON.parse(JSON.stringify(value));
const COMPONENTS = ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname',
                    'port', 'pathname', 'search', 'hash'];
function describeUrl(ctor, input, base) {
  try {
    const url = base === undefined ? new ctor(input) : new ctor(input, base);
    const out = {};
    for (const key of COMPONENTS) out[key] = url[key];
    out.params = [...url.searchParams].map((pair) => pair.join('='));
    return out;
  } catch (error) {
    return { failure: error.name };
  }
}

// Inputs [input, base?]: the URL Standard's examples and the classic cases.
const URL_CASES = [
  ['https://example.com/'], ['https://EXAMPLE.com/../x'], ['https://ex%41mple.com/'],
  ['http://example.com/foo/../bar'], ['http://example.com/foo/./bar/.'],
  ['http://example.com/%2e%2E/x'], ['http://example.com/a/.%2e/b'], ['http://example.com/a/%2e./b'],
  ['http://example.com/a/%2E%2e'], ['http://example.com/a/b/..'], ['http://a/b/c/%2e'],
  ['https://user:pass@example.com:8080/p?q#f'], ['https://user@example.com'],
  ['https://:pass@example.com'], ['https://user:@example.com'], ['https://@example.com'],
  ['https://a@b@c.com/'], ['https://a:b:c@d.com/'], ['http://us er:pa ss@h/'],
  ['http://user%40x:p%3Aw@h/'], ['http://\u00fcser:p\u00e4ss@h/'], ['http://a@/'],
  ['http://:@h/'], ['http://@/x'], ['http://a:b@c:29/d'],
  ['http://example.com:80/'], ['https://example.com:443/'], ['ws://example.com:80/'],
  ['wss://example.com:443/'], ['ftp://example.com:21/'], ['http://example.com:0080/'],
  ['http://example.com:65535/'], ['http://example.com:65536/'], ['http://example.com:-1/'],
  ['http://example.com:8x/'], ['http://example.com:/'], ['http://example.com:00000000000080/'],
  ['foo://example.com:80/'], ['http://[::1]:443/'], ['https://example.com:99999999999999/'],
  ['\t\n https://exa\nmple.com/p\tath \r\n'], ['  http://a/  '], ['\u0000http://a/\u001f'],
  ['http:\\\\example.com\\a\\b'], ['http:/example.com/'], ['http:example.com/'],
  ['http:////example.com/'], ['https:\\/\\example.com'], ['HTTP://EXAMPLE.COM/PATH'],
  ['hTtP://a'], ['https:'], ['https:/'], ['https://'], ['https:///x'], ['http://?x'],
  ['http://#x'], ['http://a:b@/x'], ['http://a/?x#y'], ['http://a/#'], ['http://a/?'],
  ['http://a/?#'], ['http://a/ ?a b#c d'], ['http://a/"<>`{}|^'], ['http://a/?"<>`{}|^\'#"<>`{}|^'],
  ['non-spec://a/?\''], ['http://a/\u00e9?\u00e9#\u00e9'], ['http://a/\ud83d\ude00'],
  ['http://a/\ud800x'], ['http://a/%zz%2'], ['http://a/%41%2F'], ['http://a/p;q=r'],
  ['http://a/%00'], ['http://a/\u007f'],
  // IPv4
  ['http://127.0.0.1/'], ['http://0x7f.1/'], ['http://127.1/'], ['http://4294967295/'],
  ['http://4294967296/'], ['http://0xffffffff/'], ['http://0x100000000/'], ['http://1.2.3.4.5/'],
  ['http://1.2.3.4./'], ['http://1.2.3.4../'], ['http://0177.0.0.1/'], ['http://0x7F.0X0.00.1/'],
  ['http://1.2.3.09/'], ['http://1.2.3.08/'], ['http://09.2.3.4/'], ['http://256.0.0.1/'],
  ['http://1.256/'], ['http://1.65536/'], ['http://1.16777216/'], ['http://1.2.65536/'],
  ['http://foo.09/'], ['http://foo.0x/'], ['http://foo.0x4/'], ['http://0x/'], ['http://0x.0x.0/'],
  ['http://1.2.3.4.5.6/'], ['http://%30.1/'], ['http://0..0x300/'], ['http://00x1/'],
  ['http://999999999999999999999999/'], ['http://\uff10\uff58\uff43\uff10\uff0e\uff10\uff12\uff15\uff10\uff0e\uff10\uff11/'],
  ['http://1.2.3.4:80/'], ['http://foo.1.2.3.4/'], ['http://1.2.3.4.foo/'], ['http://.1/'],
  ['non-special://1.2.3.4/'], ['non-special://0x7f.1/'],
  // IPv6
  ['http://[::1]/'], ['http://[0:0:0:0:0:0:0:1]/'], ['http://[1:0:0:2::3:0]/'],
  ['http://[1::2:0:0:3:0]/'], ['http://[::]/'], ['http://[1:2:3:4:5:6:7:8]/'],
  ['http://[1:2:3:4:5:6:7:8:9]/'], ['http://[1::2::3]/'], ['http://[::ffff:1.2.3.4]/'],
  ['http://[::1.2.3.4]/'], ['http://[::1.2.3.]/'], ['http://[::1.2.3.4.5]/'], ['http://[::1.2.3.04]/'],
  ['http://[::1.2.3.256]/'], ['http://[1:2:3:4:5:6:1.2.3.4]/'], ['http://[1:2:3:4:5:6:7:1.2.3.4]/'],
  ['http://[ABCD:EF01::]/'], ['http://[::12345]/'], ['http://[:1]/'], ['http://[1:]/'],
  ['http://[1::]/'], ['http://[0:0::0:1]/'], ['http://[1:0:0:0:1:0:0:0]/'], ['http://[::1%25eth0]/'],
  ['http://[::1]x/'], ['http://[::1/'], ['http://::1]/'], ['non-special://[1:2::3]:8/'],
  ['http://[1:2:3:4:5:6:7::]/'], ['http://[::2:3:4:5:6:7:8]/'], ['http://[0::0:0:1:0:0:0]/'],
  // forbidden host code points
  ['http://a b/'], ['http://a<b/'], ['http://a>b/'], ['http://a^b/'], ['http://a|b/'],
  ['http://a%b/'], ['http://a%25b/'], ['http://a%20b/'], ['http://a%00b/'], ['http://a\u007fb/'],
  ['http://a[b/'], ['http://a]b/'], ['http://a\u0001b/'], ['http://exa%2Fmple/'],
  ['non-special://a b/'], ['non-special://a%b/'], ['non-special://a\u00e9b/'],
  ['non-special://a^b/'], ['non-special://a<b/'], ['non-special://a"b/'], ['non-special://a{b/'],
  ['http://a_b!$&\'()*+,;=.com/'], ['http://a"b/'], ['http://a`b{c}/'],
  // IDNA
  ['http://b\u00fccher.de/'], ['http://B\u00dcCHER.DE/'], ['http://xn--bcher-kva.de/'],
  ['http://\uff25\uff38\uff21\uff2d\uff30\uff2c\uff25.com/'], ['http://fa\u00df.de/'],
  ['http://\u03c2.gr/'], ['http://\u2603.net/'], ['http://\ud83d\udca9.la/'], ['http://xn--ls8h.la/'],
  ['http://xn--/'], ['http://xn--a/'], ['http://xn--a.com/'], ['http://xn--zca.com/'],
  ['http://xn--abc-.com/'], ['http://xn--ab-.com/'], ['http://XN--bcher-kva.de/'],
  ['http://xn--bcher-kva.xn--/'], ['http://a.xn--nxa/'], ['http://xn--ss-.com/'],
  ['http://\u0430\u0440\u0440\u04cf\u0435.com/'], ['http://\u4f8b\u3048.\u30c6\u30b9\u30c8/'],
  ['http://\u0645\u062b\u0627\u0644.\u0625\u062e\u062a\u0628\u0627\u0631/'],
  ['http://\u05e2\u05d1\u05e8\u05d9\u05ea.co.il/'], ['http://a\u200cb.com/'], ['http://a\u200db.com/'],
  ['http://\u0915\u094d\u200d\u0937.com/'], ['http://\u0628\u200c\u0628.com/'],
  ['http://-b\u00fccher.de/'], ['http://b\u00fccher-.de/'], ['http://ab--\u00fc.de/'],
  ['http://\u0308a.com/'], ['http://a\u3002b\uff0ec\uff61d/'], ['http://\u2168.com/'],
  ['http://\ufb03.com/'], ['http://\u00ad.com/'], ['http://a\u00adb.com/'], ['http://\u180e.com/'],
  ['http://\u2f00.com/'], ['http://\u0661.com/'], ['http://a\u0661.com/'], ['http://\u0661\u06f1.com/'],
  ['http://\u00e4.\u00df.\u03c2/'], ['http://x.\u00fc.com./'], ['http://\u00fc..com/'],
  ['http://\ud800.com/'], ['http://\ufffd.com/'], ['http://\u0080.com/'], ['http://\u00a0.com/'],
  ['http://%C3%BC.com/'], ['http://%C3.com/'], ['http://%F0%9F%92%A9.la/'], ['http://%ef%bc%a1.com/'],
  ['http://\u00fc%2F.com/'], ['http://\u00fc\u0009.com/'], ['http://xn--tda.xn--tda/'],
  ['http://XN--TDA.com/'], ['http://xn--u-ccb.com/'], ['http://xn--ls8h\u00fc.com/'],
  ['http://\u1E9E.com/'], ['http://\u0131.com/'], ['http://\u0130.com/'], ['http://K\u0301.com/'],
  ['http://\u212a.com/'], ['http://\u00c5.com/'], ['http://A\u030a.com/'],
  // relative resolution
  ['//example.com/x', 'https://base.com/a/b'], ['/x', 'https://base.com/a/b'],
  ['x', 'https://base.com/a/b'], ['../x', 'https://base.com/a/b/c'], ['../../../../x', 'https://base.com/a/b'],
  ['?q', 'https://base.com/a/b?old#f'], ['#f', 'https://base.com/a/b?q'], ['', 'https://base.com/a/b?q#f'],
  ['.', 'https://base.com/a/b'], ['..', 'https://base.com/a/b'], ['./', 'https://base.com/a/b'],
  ['\\x', 'https://base.com/a/b'], ['\\\\h\\x', 'https://base.com/a/b'], ['http:x', 'https://base.com/a/b'],
  ['https:x', 'https://base.com/a/b'], ['https:/x', 'https://base.com/a/b'], ['https://x', 'https://base.com/a/b'],
  ['g;x?y#s', 'http://a/b/c/d;p?q'], ['g?y/./x', 'http://a/b/c/d;p?q'], ['g#s/../x', 'http://a/b/c/d;p?q'],
  ['/./g', 'http://a/b/c/d;p?q'], ['/../g', 'http://a/b/c/d;p?q'], ['g.', 'http://a/b/c/d;p?q'],
  ['..g', 'http://a/b/c/d;p?q'], ['./../g', 'http://a/b/c/d;p?q'], ['g/../h', 'http://a/b/c/d;p?q'],
  ['x', 'about:blank'], ['#x', 'about:blank'], ['#x', 'data:text/plain,hi'], ['?x', 'mailto:a@b'],
  ['x', 'non-spec:/a/b'], ['../x', 'non-spec:/a/b/c'], ['x', 'non-spec://h/a/b'], ['//h2/x', 'non-spec://h/a'],
  ['/x', 'non-spec:/a/b'], ['x', 'sc:'], ['x', 'not a url'], ['http://a', 'not a url'],
  ['x', 'https://\u00fc.com/a'], ['mailto:x', 'https://a/b'],
  // non-special and opaque
  ['mailto:someone@example.com'], ['mailto:a b?c d#e f'], ['data:text/plain,hello world'],
  ['data:a b ?x'], ['data:a b #x'], ['data:a b '], ['javascript:alert(1)'], ['about:blank'],
  ['sc://\u00f1.test/'], ['sc://\u00f1'], ['sc://%/'], ['sc://@/'], ['sc://te@s:t@/'], ['sc://:/'],
  ['sc://:12/'], ['sc://[/'], ['sc://\\/'], ['sc://]/'], ['sc:\\../'], ['sc::a@example.net'],
  ['sc:/../x'], ['sc://h/../x'], ['sc:/.//p'], ['web+demo:/.//not-a-host/'], ['git+ssh://git@h:p/x'],
  ['a1+-.b://x'], ['1a://x'], ['a://x/ y?z'], ['foo:/\u00e9'], ['foo:\u00e9'], ['foo://h/\u00e9'],
  ['blob:https://a.com/uuid'], ['blob:ftp://a.com/x'], ['blob:null/x'], ['blob:blob:https://a.com/'],
  ['blob:https://a.com:443/x'], ['blob:d3958f5c-0777-0845-9dcf-2cb28783acaf'],
  ['ws://a/?\''], ['wss://a/#\''], ['ftp://a/b'], ['FTP://A:21/'],
  // file
  ['file:///C:/x'], ['file:///C|/x'], ['file:/C|/x'], ['file:C|/x'], ['file://C|/x'],
  ['file://localhost/x'], ['file://LOCALHOST/x'], ['file://host/x'], ['file://h\u00fcst/x'],
  ['file:///x/../..'], ['file:///C:/../..'], ['file:///C:/a/../../..'], ['file://host/C|/x'],
  ['file:.'], ['file:'], ['file://'], ['file:///'], ['file:\\\\host\\share\\x'], ['file://user@h/x'],
  ['file://h:80/x'], ['file:?q'], ['file:#f'], ['file://[::1]/x'], ['file://1.2.3.4/'],
  ['file://0x7f.1/'], ['file:x'], ['x', 'file:///C:/a/b'], ['/x', 'file:///C:/a/b'],
  ['//h/x', 'file:///C:/a/b'], ['C|', 'file:///D:/a'], ['/C|', 'file:///D:/a'], ['..', 'file:///C:/'],
  ['?q', 'file:///a/b'], ['#f', 'file:///a/b?q'], ['', 'file:///a/b?q'], ['file:x', 'file:///a/b'],
  ['\\x', 'file:///a/b'], ['/c:/foo', 'file:///d:/bar'], ['C|/x', 'file://h/a'], ['file:C:/', 'http://a'],
  ['file:/x', 'file://h/a'], ['file:///C%3A/x'], ['file:///C%7C/x'], ['file:///c:'], ['file:///c:/'],
  ['file://\u00fc.com/'], ['file://a%20b/'], ['file:..', 'http://www.example.com/test'],
  // failures
  [''], ['x'], ['http://'], ['http://a:b'], ['http:// /'], ['https://x y.com/'], ['://x'],
  ['http://[]/'], ['http://[::1]:x/'], ['http://a:99999/'], ['https://@@x/'],
];

test('URL parses as Node does', () => {
  const mismatches = [];
  for (const [input, base] of URL_CASES) {
    const ours = describeUrl(Ours.URL, input, base);
    const known = KNOWN_DIFFERENCES.get(input);
    if (known !== undefined) {
      const outcome = ours.failure ? 'failure' : ours.href;
      if (outcome !== known) mismatches.push(`${JSON.stringify(input)}: ${outcome} != ${known}`);
      continue;
    }
    const theirs = describeUrl(URL, input, base);
    if (theirs.failure) {
      if (!ours.failure) mismatches.push(`${JSON.stringify([input, base])}: parsed ${ours.href}, node fails`);
      continue;
    }
    try {
      assert.deepEqual({ ...ours }, theirs);
    } catch {
      mismatches.push(`${JSON.stringify([input, base])}:\n  ours ${JSON.stringify(ours)}\n  node ${JSON.stringify(theirs)}`);
    }
  }
  assert.deepEqual(mismatches, [], `${mismatches.length} of ${URL_CASES.length}`);
});

// Setters: [base href, setter, values]; each value is set on a fresh URL from the base href.
const SETTER_CASES = [
  ['https://user:pw@example.com:8080/p/q?x=1#frag', 'href',
   ['http://a/', 'not a url', 'https://b.com/?y', '', 'mailto:x']],
  ['https://example.com/p', 'protocol',
   ['http', 'HTTP:', 'ftp:x', 'wss', 'file', 'mailto', 'foo', ' http', 'h$ttp', 'https:foo', '']],
  ['foo://example.com/p', 'protocol', ['http', 'bar', 'file']],
  ['file:///C:/x', 'protocol', ['http', 'foo']],
  ['http://a:8080/', 'protocol', ['https', 'file']],
  ['http://u@a/', 'protocol', ['file']],
  ['mailto:x@y', 'protocol', ['http', 'news']],
  ['https://example.com:81/', 'protocol', ['http']],
  ['https://example.com/', 'username', ['me', 'm e', 'a:b@c', '\u00fc', '%41', '']],
  ['https://example.com/', 'password', ['pw', 'p w', 'a:b@c', '']],
  ['file:///x', 'username', ['me']], ['mailto:a@b', 'username', ['me']],
  ['https://example.com:81/p', 'host',
   ['other.org', 'other.org:82', 'other.org:443', 'other.org:x', ':90', '', '[::1]:1',
    'b\u00fccher.de', 'a b', 'a/b', 'a?b', 'a#b', 'a\\b', '0x7f.1', 'x:65536', 'h:80abc']],
  ['foo://example.com/p', 'host', ['other', '', 'a%b', 'a b']],
  ['file://h/p', 'host', ['other', 'localhost', '']],
  ['mailto:a@b', 'host', ['x']],
  ['https://u@example.com/', 'host', ['']],
  ['https://example.com:81/p', 'hostname',
   ['other.org', 'other.org:82', '', '[::1]', 'b\u00fccher.de', '127.1', 'a%41b', 'x/y']],
  ['foo://example.com/', 'hostname', ['', 'ot%her']],
  ['foo://u@example.com/', 'hostname', ['']],
  ['https://example.com/p', 'port',
   ['8080', '443', '0', '65535', '65536', '12x', 'x', '', ' 1', '+1', '-1', '1.5', '080']],
  ['file:///x', 'port', ['80']], ['foo://h/', 'port', ['80', '']],
  ['https://example.com/p', 'pathname',
   ['/a/b', 'a/b', '/a/../b', '/%2e/x', '/ a?b#c', '\\x\\y', '', '/\u00fc', '//x']],
  ['foo://h/p', 'pathname', ['x', '', '/a b', '\\x']],
  ['foo:/p', 'pathname', ['//x', '/a']],
  ['mailto:a@b', 'pathname', ['x']],
  ['file:///C:/a', 'pathname', ['/D|/b', '/../x']],
  ['https://example.com/p?q', 'search',
   ['x=1', '?x=1', '??x', '', '?', 'a b&c', 'a#b', '\u00fc=\u00e9', "'"]],
  ['foo://h/p?q', 'search', ["'", 'a b']],
  ['data:a b ?q', 'search', ['']],
  ['https://example.com/p#h', 'hash', ['x', '#x', '##x', '', '#', 'a b', '\u00fc', '`']],
  ['data:a b #h', 'hash', ['', 'x']],
];

test('URL setters behave as Node does', () => {
  const mismatches = [];
  let count = 0;
  for (const [href, setter, values] of SETTER_CASES) {
    for (const value of values) {
      count++;
      const ours = new Ours.URL(href);
      const theirs = new URL(href);
      let oursThrew = false;
      let theirsThrew = false;
      try { ours[setter] = value; } catch { oursThrew = true; }
      try { theirs[setter] = value; } catch { theirsThrew = true; }
      const a = { threw: oursThrew, ...describeUrl(Ours.URL, ours.href) };
      const b = { threw: theirsThrew, ...describeUrl(URL, theirs.href) };
      try {
        assert.deepEqual(a, b);
      } catch {
        mismatches.push(`${href} .${setter} = ${JSON.stringify(value)}:\n  ours ${JSON.stringify(a)}\n  node ${JSON.stringify(b)}`);
      }
    }
  }
  assert.deepEqual(mismatches, [], `${mismatches.length} of ${count}`);
});

test('searchParams is bound both ways', () => {
  const url = new Ours.URL('https://example.com/p?a=1&b=2#h');
  url.searchParams.append('c', '3 4');
  assert.equal(url.href, 'https://example.com/p?a=1&b=2&c=3+4#h');
  url.search = '?x=9';
  assert.deepEqual([...url.searchParams.keys()], ['x']);
  url.searchParams.delete('x');
  assert.equal(url.href, 'https://example.com/p#h');
  url.href = 'https://other/?k=v';
  assert.equal(url.searchParams.get('k'), 'v');
  const opaque = new Ours.URL('data:a b ?q=1');
  opaque.searchParams.delete('q');
  assert.equal(opaque.href, new URL('data:a b ?q=1').href.replace(' ?q=1', ''));
  assert.equal(url.searchParams, url.searchParams);
});

const PARAM_INPUTS = [
  '', '?', 'a=1&b=2', '?a=1&a=2&b', 'a+b=c+d', 'a%20b=c%2Bd', '=x', 'x=', '&&a&&', 'a=b=c',
  '%zz=%4', '%C3%BC=%F0%9F%92%A9', '%FF=%C3', '\u00fc=\u00e9', 'a=%26&b=%3D', '?%3F=1',
  'q=\ud800', 'z=1&a=2&m=3&a=1', '\u{1F600}=1&\uFB01=2&a=3',
];
test('URLSearchParams matches Node', () => {
  const ops = (P, init) => {
    const p = new P(init);
    const out = { str: p.toString(), size: p.size, entries: [...p] };
    out.get = [p.get('a'), p.get('missing'), p.getAll('a')];
    out.has = [p.has('a'), p.has('a', '1'), p.has('a', 'nope')];
    p.append('a', 'x y&z=\u00fc');
    p.set('b', '\u{1F600}');
    out.afterSet = p.toString();
    p.delete('a', '1');
    out.afterDeleteValue = p.toString();
    p.sort();
    out.sorted = p.toString();
    p.delete('a');
    out.afterDelete = p.toString();
    const seen = [];
    p.forEach((value, key) => seen.push(key + ':' + value));
    out.forEach = seen;
    return out;
  };
  for (const input of PARAM_INPUTS) {
    assert.deepEqual(plain(ops(Ours.URLSearchParams, input)), plain(ops(URLSearchParams, input)),
                     JSON.stringify(input));
  }
  const record = { b: '2', a: '1', '\u00fc': '\u00e9' };
  assert.equal(new Ours.URLSearchParams(record).toString(), new URLSearchParams(record).toString());
  const pairs = [['a', '1'], ['b', '2'], ['a', '3']];
  assert.equal(new Ours.URLSearchParams(pairs).toString(), new URLSearchParams(pairs).toString());
  const map = new Map([['m', 'n']]);
  assert.equal(new Ours.URLSearchParams(map).toString(), 'm=n');
  assert.throws(() => new Ours.URLSearchParams([['a']]), { name: 'TypeError' });
  assert.throws(() => new Ours.URLSearchParams([['a', 'b', 'c']]), { name: 'TypeError' });
  // Web IDL converts null to the union's USVString, "null" (Node 20 gives an empty list).
  assert.equal(new Ours.URLSearchParams(null).toString(), 'null=');
  const everyByte = Array.from({ length: 128 }, (_, i) => String.fromCharCode(i)).join('');
  assert.equal(new Ours.URLSearchParams({ k: everyByte }).toString(),
               new URLSearchParams({ k: everyByte }).toString());
  const p = new Ours.URLSearchParams('a=1&b=2&c=3');
  const it = p.entries();
  assert.deepEqual(plain(it.next()), { value: ['a', '1'], done: false });
  p.delete('a');
  assert.deepEqual(plain(it.next()), { value: ['c', '3'], done: false });
  assert.equal(Object.prototype.toString.call(it), '[object URLSearchParams Iterator]');
});

// Random strings over an alphabet of the characters URL parsing cares about.
function* randomStrings(count, seed) {
  const alphabet = ['a', 'B', '0', '9', 'x', ':', '/', '\\', '?', '#', '@', '.', '%', '2', 'e',
                    'E', '[', ']', ' ', '\t', '\u00fc', '\u00df', '-', '+', '=', '&', 'f', 'F',
                    '\u3002', '\ud83d\ude00', '\u0000', '^', '|', 'xn--', 'http:', 'file:', '//',
                    '1', '255', '0x', '::', 'C:', 'C|', '"', '`', '{', "'", '~', '\u200d'];
  let state = seed;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  for (let i = 0; i < count; i++) {
    let s = '';
    const length = Math.floor(random() * 16);
    for (let j = 0; j < length; j++) s += alphabet[Math.floor(random() * alphabet.length)];
    yield s;
  }
}
test('random strings parse as Node does, alone and against bases', () => {
  // No base with an opaque path: Node 20 (ada 2.9) resolves "-x" against "sc:x" as "sc:x/-x",
  // where the standard fails (as it, and Node, do for "x").
  const bases = [undefined, 'http://h/a/b?q#f', 'file:///C:/a/b', 'foo://h/a', 'foo:/a/b'];
  const mismatches = [];
  let count = 0;
  for (const input of randomStrings(6000, 7)) {
    for (const base of bases) {
      count++;
      const ours = describeUrl(Ours.URL, input, base);
      const theirs = describeUrl(URL, input, base);
      if (ours.failure && theirs.failure) continue;
      try {
        assert.deepEqual({ ...ours }, theirs);
      } catch {
        mismatches.push(`${JSON.stringify([input, base])}: ours ${ours.href || ours.failure}, node ${theirs.href || theirs.failure}`);
      }
    }
  }
  assert.deepEqual(mismatches.slice(0, 20), [], `${mismatches.length} of ${count}`);
});

test('TextEncoder matches Node', () => {
  const strings = ['', 'abc', '\u00fc\u00e9', '\u20ac', '\ud83d\ude00', '\ud800', 'a\udc00b',
                   '\udbff\udfff', '\ud800\ud800\udc00', 'x'.repeat(10000) + '\u{10FFFF}'];
  const ours = new Ours.TextEncoder();
  const theirs = new TextEncoder();
  for (const s of strings) {
    assert.deepEqual([...ours.encode(s)], [...theirs.encode(s)], JSON.stringify(s));
    for (const size of [0, 1, 2, 3, 4, 5, 8]) {
      const a = vm.runInContext(`new Uint8Array(${size})`, context);
      const b = new Uint8Array(size);
      const ra = ours.encodeInto(s, a);
      const rb = theirs.encodeInto(s, b);
      assert.deepEqual(plain({ read: ra.read, written: ra.written, bytes: [...a] }),
                       { read: rb.read, written: rb.written, bytes: [...b] }, `${JSON.stringify(s)} ${size}`);
    }
  }
  assert.equal(ours.encoding, 'utf-8');
  assert.equal(ours.encode().length, 0);
  assert.throws(() => ours.encodeInto('x', []), { name: 'TypeError' });
});

test('TextDecoder matches Node, one-shot and streamed, fatal and not', () => {
  const inputs = [
    [], [0x61], [0xef, 0xbb, 0xbf, 0x61], [0xef, 0xbb, 0xbf], [0xc3, 0xbc], [0xc3], [0xc3, 0x61],
    [0xe2, 0x82], [0xe2, 0x82, 0xac], [0xf0, 0x9f, 0x98, 0x80], [0xf0, 0x9f, 0x98], [0xf0, 0x9f, 0x41],
    [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xc0, 0x80], [0xc1, 0xbf], [0xe0, 0x80, 0x80],
    [0xf0, 0x80, 0x80, 0x80], [0xf5], [0xff, 0xfe], [0x80, 0xbf], [0xe0, 0xa0], [0xfe, 0xff, 0, 0x61],
    [0xff, 0xfe, 0x61, 0], [0x00, 0xd8, 0x00, 0xdc], [0x00, 0xd8, 0x61, 0x00], [0x00, 0xdc],
    [0x61, 0x00, 0x62], [0x80, 0x81, 0x9f, 0xa0, 0xff],
  ];
  for (let i = 0; i < 300; i++) {
    const bytes = [];
    for (let j = 0; j < i % 13; j++) bytes.push([0x61, 0xc3, 0xbc, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0x80, 0xff, 0xed, 0xa0, 0x00, 0xd8, 0xdc][(i * 7 + j * 13) % 17]);
    inputs.push(bytes);
  }
  const decode = (TD, label, options, bytes, chunk, makeBytes) => {
    try {
      const decoder = new TD(label, options);
      if (chunk === 0) return decoder.decode(makeBytes(bytes));
      let out = '';
      for (let i = 0; i < bytes.length; i += chunk) {
        out += decoder.decode(makeBytes(bytes.slice(i, i + chunk)), { stream: true });
      }
      return out + decoder.decode();
    } catch (error) {
      return error.name;
    }
  };
  const oursBytes = (bytes) => vm.runInContext(`new Uint8Array(${JSON.stringify(bytes)})`, context);
  const nodeBytes = (bytes) => new Uint8Array(bytes);
  // Not windows-1252: Node 20 decodes it as ISO-8859-1 (0x80 is U+0080, not U+20AC).
  for (const label of ['utf-8', 'utf-16le', 'utf-16be']) {
    for (const options of [{}, { fatal: true }, { ignoreBOM: true }]) {
      for (const bytes of inputs) {
        for (const chunk of [0, 1, 2, 3]) {
          assert.equal(decode(Ours.TextDecoder, label, options, bytes, chunk, oursBytes),
                       decode(TextDecoder, label, options, bytes, chunk, nodeBytes),
                       `${label} ${JSON.stringify(options)} ${JSON.stringify(bytes)} chunk ${chunk}`);
        }
      }
    }
  }
  for (const label of ['UTF8', ' utf-8 ', 'unicode-1-1-utf-8', 'utf-16', 'UCS-2', 'ascii',
                       'iso-8859-1', 'us-ascii', 'windows-1252', 'x-cp1252']) {
    assert.equal(new Ours.TextDecoder(label).encoding, new TextDecoder(label).encoding, label);
  }
  assert.throws(() => new Ours.TextDecoder('nope'), { name: 'RangeError' });
  const high = vm.runInContext('new Uint8Array(Array.from({ length: 128 }, (_, i) => 128 + i))', context);
  const windows1252 = '\u20ac\x81\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039' +
      '\u0152\x8d\u017d\x8f\x90\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161' +
      '\u203a\u0153\x9d\u017e\u0178';
  let upper = '';
  for (let i = 0xa0; i < 0x100; i++) upper += String.fromCharCode(i);
  assert.equal(new Ours.TextDecoder('latin1', { fatal: true }).decode(high), windows1252 + upper);
  const view = vm.runInContext('new DataView(new Uint8Array([0x68, 0x69, 0x21]).buffer, 1)', context);
  assert.equal(new Ours.TextDecoder().decode(view), 'i!');
  assert.equal(new Ours.TextDecoder().decode(vm.runInContext('new Uint8Array([104, 105]).buffer', context)), 'hi');
  assert.throws(() => new Ours.TextDecoder().decode('str'), { name: 'TypeError' });
});

test('atob and btoa match Node', () => {
  const valid = ['', 'YQ==', 'YQ', 'YWI=', 'YWI', 'YWJj', ' Y W\tJ\nj \f\r', 'YQ=\n=', '////', '+/+/',
                 'AAAA', '3q2+7w=='];
  const invalid = ['Y', 'YQ=', 'YQ===', 'Y===', '=', '==', 'YQ==a', 'Y$', 'YQ=a', '\u00ffA==', '-_'];
  for (const s of [...valid, ...invalid]) {
    let a; let b;
    try { a = Ours.atob(s); } catch (error) { a = `${error.name}/${error.code}`; }
    try { b = atob(s); } catch (error) { b = `${error.name}/${error.code}`; }
    assert.equal(a, b, JSON.stringify(s));
  }
  for (const s of ['', 'a', 'ab', 'abc', 'abcd', '\u00ff\u0000\u0080', 'x'.repeat(1000)]) {
    assert.equal(Ours.btoa(s), btoa(s));
    assert.equal(Ours.atob(Ours.btoa(s)), s);
  }
  assert.throws(() => Ours.btoa('\u0100'), (error) => error.name === 'InvalidCharacterError' && error.code === 5);
  assert.throws(() => Ours.atob(), { name: 'TypeError' });
  assert.equal(Ours.atob(null), atob(null));
  assert.equal(Ours.btoa(undefined), btoa(undefined));
});

test('DOMException has the legacy codes, the shape and the tag', () => {
  for (const name of ['IndexSizeError', 'SyntaxError', 'InvalidCharacterError', 'DataCloneError',
                      'QuotaExceededError', 'TypeMismatchError', 'NotFoundError', 'AbortError',
                      'TimeoutError', 'Error', 'EncodingError', 'made up']) {
    const ours = new Ours.DOMException('m', name);
    const theirs = new DOMException('m', name);
    assert.deepEqual([ours.name, ours.message, ours.code], [theirs.name, theirs.message, theirs.code]);
  }
  const e = new Ours.DOMException();
  assert.deepEqual([e.name, e.message, e.code], ['Error', '', 0]);
  assert.equal(Ours.DOMException.DATA_CLONE_ERR, 25);
  assert.equal(e.INDEX_SIZE_ERR, 1);
  assert.equal(Object.prototype.toString.call(e), '[object DOMException]');
  assert.ok(e instanceof run('Error'));
  assert.equal(Ours.DOMException.length, 0);
});

test('globals are web IDL shaped and immune to later prototype changes', () => {
  for (const name of ['URL', 'URLSearchParams', 'TextEncoder', 'TextDecoder', 'atob', 'btoa',
                      'DOMException', 'structuredClone', 'crypto', 'Crypto', 'console']) {
    const desc = run(`Object.getOwnPropertyDescriptor(globalThis, ${JSON.stringify(name)})`);
    assert.deepEqual([desc.writable, desc.enumerable, desc.configurable], [true, false, true], name);
  }
  assert.deepEqual(plain(run('[URL.name, URL.length, URLSearchParams.length, btoa.length, atob.length, structuredClone.length, TextDecoder.length]')),
                   ['URL', 1, 0, 1, 1, 1, 0]);
  assert.equal(run('Object.keys(URL.prototype).length + Object.keys(URLSearchParams.prototype).length'), 0);
  assert.equal(run('Object.prototype.toString.call(new URL("http://a"))'), '[object URL]');
  assert.equal(run('JSON.stringify({u: new URL("http://a/b")})'), '{"u":"http://a/b"}');
  assert.equal(run('URL.canParse("x", "http://a")'), true);
  assert.equal(run('URL.parse("x")'), null);
  assert.equal(run('URL.parse("x", "http://a/").href'), 'http://a/x');
  assert.throws(() => run('new Crypto()'), /Illegal constructor/);
  const before = run('new URL("https://b\u00fccher.de/a?x=1#y").href');
  run(`String.prototype.charCodeAt = () => 0; Array.prototype.push = () => { throw 1; };
       String.prototype.slice = () => ''; String.prototype.indexOf = () => -1;
       RegExp.prototype.exec = () => null; JSON.stringify = () => 'x'; Uint8Array.prototype.fill = null;
       Object.defineProperty(Object.getPrototypeOf(Uint8Array.prototype), 'length', { get() { return 0; } });
       Array.prototype[Symbol.iterator] = function* () {};`);
  assert.equal(run('new URL("https://b\u00fccher.de/a?x=1#y").href'), before);
  assert.equal(run('new TextDecoder().decode(new TextEncoder().encode("\u00fc\u20ac"))'), '\u00fc\u20ac');
  assert.equal(run('btoa(atob("YWJj"))'), 'YWJj');
  // (A sequence argument is iterated with the program's own iterator, as Web IDL says.)
  assert.equal(run('new URLSearchParams({ a: "1" }).toString()'), 'a=1');
});
export { makeContext };
