// What a person reads before approving: a program's source and the texts beside it, shown so that
// every character the digest covers is seen where the engine sees it (docs/console.md, "Character
// by character"). Three rules:
// - lines end where the engine ends them (LF, CRLF, CR, U+2028, U+2029), so the numbers beside
//   them are the engine's line numbers;
// - a character a reader could not see (a control, a format or invisible character, an unusual
//   space or line break) is drawn as a badge such as ⟨U+202E⟩, and any other character outside
//   ASCII is marked, so a lookalike letter stands out;
// - the highlighter may leave code plain, but never draws code as a comment: where it cannot be
//   sure how the engine reads a '/', it stops highlighting.
// Pure functions on strings, plus render functions that build DOM nodes (never markup).
'use strict';

const SourceView = (() => {
  // ---- lines, as the engine counts them ----
  const LINE_BREAK = /\r\n|[\n\r\u2028\u2029]/g;
  const isLineBreak = (c) => c === '\n' || c === '\r' || c === '\u2028' || c === '\u2029';

  // [{start, end, text, terminator}]: one entry per engine line; `end` excludes the terminator.
  function splitLines(text) {
    const lines = [];
    let start = 0;
    for (const match of text.matchAll(LINE_BREAK)) {
      lines.push({ start, end: match.index, text: text.slice(start, match.index), terminator: match[0] });
      start = match.index + match[0].length;
    }
    lines.push({ start, end: text.length, text: text.slice(start), terminator: '' });
    return lines;
  }

  // ---- characters a reader could miss ----
  // Drawn as a badge instead of the character: controls (but TAB and LF), format and
  // default-ignorable characters (bidirectional controls, zero-width characters, tag characters,
  // variation selectors, Hangul fillers), line and paragraph separators, private-use, unassigned
  // and lone surrogate code points, and every space but U+0020.
  const HIDDEN = /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\p{Zl}\p{Zp}\p{Zs}\p{Co}\p{Cn}\p{Cs}]/u;
  const UNUSUAL = /[^\t\n\x20-\x7e]/gu;
  const NAMES = {
    0x0d: 'CARRIAGE RETURN', 0x85: 'NEXT LINE', 0xa0: 'NO-BREAK SPACE', 0xad: 'SOFT HYPHEN',
    0x061c: 'ARABIC LETTER MARK', 0x180e: 'MONGOLIAN VOWEL SEPARATOR', 0x200b: 'ZERO WIDTH SPACE',
    0x200c: 'ZERO WIDTH NON-JOINER', 0x200d: 'ZERO WIDTH JOINER', 0x200e: 'LEFT-TO-RIGHT MARK',
    0x200f: 'RIGHT-TO-LEFT MARK', 0x2028: 'LINE SEPARATOR: a line break',
    0x2029: 'PARAGRAPH SEPARATOR: a line break', 0x202a: 'LEFT-TO-RIGHT EMBEDDING',
    0x202b: 'RIGHT-TO-LEFT EMBEDDING', 0x202c: 'POP DIRECTIONAL FORMATTING',
    0x202d: 'LEFT-TO-RIGHT OVERRIDE', 0x202e: 'RIGHT-TO-LEFT OVERRIDE', 0x2060: 'WORD JOINER',
    0x2066: 'LEFT-TO-RIGHT ISOLATE', 0x2067: 'RIGHT-TO-LEFT ISOLATE', 0x2068: 'FIRST STRONG ISOLATE',
    0x2069: 'POP DIRECTIONAL ISOLATE', 0x3164: 'HANGUL FILLER', 0xfeff: 'ZERO WIDTH NO-BREAK SPACE',
  };

  function codePointName(codePoint) {
    return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
  }

  function badge(codePoint, note) {
    const node = document.createElement('span');
    node.className = 'hidden-char';
    node.textContent = `⟨${codePointName(codePoint)}⟩`;
    node.title = [NAMES[codePoint], note].filter(Boolean).join(' · ') || 'an invisible or control character';
    return node;
  }

  // Counts of what was marked, for the summary above the source.
  function newMarks() {
    return { hidden: 0, nonAscii: 0, breaks: 0, longLines: 0, plainFrom: 0 };
  }

  // `text` as nodes: ordinary characters as text, hidden ones (a CR, U+2028 and U+2029 included)
  // as badges, other non-ASCII ones inside a marked span.
  function visible(text, marks = newMarks()) {
    const nodes = [];
    let last = 0;
    for (const match of text.matchAll(UNUSUAL)) {
      if (match.index > last) nodes.push(document.createTextNode(text.slice(last, match.index)));
      const codePoint = match[0].codePointAt(0);
      if (HIDDEN.test(match[0])) {
        nodes.push(badge(codePoint));
        marks.hidden += 1;
      } else {
        const node = document.createElement('span');
        node.className = 'non-ascii';
        node.title = codePointName(codePoint);
        node.textContent = match[0];
        nodes.push(node);
        marks.nonAscii += 1;
      }
      last = match.index + match[0].length;
    }
    if (last < text.length) nodes.push(document.createTextNode(text.slice(last)));
    return nodes;
  }

  // ---- highlighting: a tokenizer that follows SpiderMonkey's, for scripts ----
  // Tokens are {kind, start, end}; kinds: com, str, tmpl, num, kw, re, unsure; text between
  // tokens is plain. Whether '/' starts a regular expression or divides depends on the token
  // before it; where that cannot be decided from the tokens alone (after '}', '++', '--',
  // `await` or `of`), everything from there on is one `unsure` token: drawn plain.
  const KEYWORDS = new Set(('await break case catch class const continue debugger default delete do ' +
    'else enum export extends false finally for function if import in instanceof let new null of ' +
    'return static super switch this throw true try typeof var void while with yield').split(' '));
  // Words after which an expression ends: a '/' divides. Other reserved words expect an operand.
  const VALUE_WORDS = new Set(['this', 'super', 'null', 'true', 'false']);
  const UNSURE_WORDS = new Set(['await', 'of']);
  const CONTROL_WORDS = new Set(['if', 'while', 'for', 'with']);
  const SPACE = /[\t\v\f \p{Zs}\ufeff]/u;
  const IDENTIFIER = /(?:[\p{ID_Start}$_]|\\u(?:[0-9a-fA-F]{4}|\{[0-9a-fA-F]+\}))(?:[\p{ID_Continue}$\u200c\u200d]|\\u(?:[0-9a-fA-F]{4}|\{[0-9a-fA-F]+\}))*/uy;
  const NUMBER = /(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d[\d_]*)?)n?/y;
  const PUNCTUATOR = /\.\.\.|\?\.(?!\d)|\+\+|--|=>|[{}()[\];,<>+\-*%&|^!~?:=.\/]/y;

  function tokenize(source) {
    const tokens = [];
    const braces = [];   // 'block' or 'template', for the '}' that resumes a template
    const parens = [];   // for each open '(': whether a '/' after its ')' starts a regex
    let prev = { kind: 'start' };
    let before = { kind: 'start' };
    let dirty = true;    // the engine wraps the source in '(': line 1 already holds a token
    let at = 0;
    const push = (kind, start, end) => { tokens.push({ kind, start, end }); };
    const significant = (token) => { before = prev; prev = token; dirty = true; };
    const lineEnd = (from) => {
      let end = from;
      while (end < source.length && !isLineBreak(source[end])) end += 1;
      return end;
    };
    const match = (pattern) => {
      pattern.lastIndex = at;
      const found = pattern.exec(source);
      return found ? found[0] : null;
    };

    // Whether a '/' here starts a regular expression: true, false or 'unsure'.
    function regexAllowed() {
      switch (prev.kind) {
        case 'start': return true;
        case 'word':
          if (prev.property) return false;
          if (UNSURE_WORDS.has(prev.text)) return 'unsure';
          return KEYWORDS.has(prev.text) && !VALUE_WORDS.has(prev.text);
        case 'punct':
          if (prev.text === ')') return prev.control === true ? true : prev.control === false ? false : 'unsure';
          if (prev.text === ']') return false;
          if (prev.text === '}' || prev.text === '++' || prev.text === '--') return 'unsure';
          return true;
        default: return false;  // a literal, a template, a regular expression, a private name
      }
    }

    // A string, from its quote; a line break ends it unterminated (the engine refuses that).
    function string(quote) {
      let end = at + 1;
      while (end < source.length && source[end] !== quote) {
        if (source[end] === '\n' || source[end] === '\r') break;
        if (source[end] === '\\') end += source[end + 1] === '\r' && source[end + 2] === '\n' ? 2 : 1;
        end += 1;
      }
      return end < source.length && source[end] === quote ? end + 1 : end;
    }

    // Template text from `at` (after '`' or a substitution's '}'): up to and including '`' or '${'.
    function templateText() {
      let end = at;
      while (end < source.length) {
        if (source[end] === '\\') { end += 2; continue; }
        if (source[end] === '`') return { end: end + 1, open: false };
        if (source[end] === '$' && source[end + 1] === '{') return { end: end + 2, open: true };
        end += 1;
      }
      return { end: source.length, open: false };
    }

    // A regular expression literal from its '/', as the engine scans it: escapes, classes, flags.
    function regex() {
      let end = at + 1;
      let inClass = false;
      for (; end < source.length; end += 1) {
        let c = source[end];
        if (c === '\\') { end += 1; c = source[end]; }
        else if (c === '[') inClass = true;
        else if (c === ']') inClass = false;
        else if (c === '/' && !inClass) break;
        if (c === undefined || isLineBreak(c)) return end;  // unterminated: the engine refuses it
      }
      end += 1;
      while (end < source.length && /[\p{ID_Continue}$]/u.test(source[end])) end += 1;
      return Math.min(end, source.length);
    }

    // A template's text from `start` (its '`', or the '}' that ends a substitution).
    function template(start) {
      at = start + 1;
      const text = templateText();
      push('tmpl', start, text.end);
      if (text.open) {
        braces.push('template');
        prev = { kind: 'punct', text: '${' };
        dirty = true;
      } else {
        significant({ kind: 'tmpl' });
      }
      at = text.end;
    }

    while (at < source.length) {
      const c = source[at];
      if (isLineBreak(c)) { at += c === '\r' && source[at + 1] === '\n' ? 2 : 1; dirty = false; continue; }
      if (SPACE.test(c)) { at += 1; continue; }
      if (source.startsWith('//', at) || source.startsWith('<!--', at) ||
          (!dirty && source.startsWith('-->', at))) {
        const end = lineEnd(at);
        push('com', at, end);
        at = end;
        continue;
      }
      if (source.startsWith('/*', at)) {
        const close = source.indexOf('*/', at + 2);
        const end = close < 0 ? source.length : close + 2;
        push('com', at, end);
        if ([...source.slice(at, end)].some(isLineBreak)) dirty = false;
        at = end;
        continue;
      }
      if (c === '\'' || c === '"') {
        const end = string(c);
        push('str', at, end);
        significant({ kind: 'str' });
        at = end;
        continue;
      }
      if (c === '`') { template(at); continue; }
      if (c === '}' && braces[braces.length - 1] === 'template') {
        braces.pop();
        template(at);
        continue;
      }
      const number = /[\d.]/.test(c) ? match(NUMBER) : null;
      if (number && number !== '.') {
        push('num', at, at + number.length);
        significant({ kind: 'num' });
        at += number.length;
        continue;
      }
      if (c === '#') {  // a private name
        at += 1;
        const name = match(IDENTIFIER);
        if (!name) { at -= 1; break; }
        significant({ kind: 'private' });
        at += name.length;
        continue;
      }
      const word = match(IDENTIFIER);
      if (word) {
        const property = prev.kind === 'punct' && (prev.text === '.' || prev.text === '?.');
        if (!property && KEYWORDS.has(word)) push('kw', at, at + word.length);
        significant({ kind: 'word', text: word, property });
        at += word.length;
        continue;
      }
      if (c === '/') {
        let allowed = regexAllowed();
        // After a line break the engine may end the statement before this '/' (automatic
        // semicolon insertion: `let note` then `/re/` on the next line), making it a regular
        // expression where the token before says division: too close to call.
        if (allowed === false && !dirty) allowed = 'unsure';
        if (allowed === 'unsure') break;
        if (allowed) {
          const end = regex();
          push('re', at, end);
          significant({ kind: 're' });
          at = end;
          continue;
        }
      }
      const punctuator = match(PUNCTUATOR);
      if (!punctuator) break;  // a character the engine would refuse here: stop highlighting
      const token = { kind: 'punct', text: punctuator };
      if (punctuator === '{') braces.push('block');
      if (punctuator === '}') braces.pop();
      if (punctuator === '(') {
        const control = prev.kind === 'word' && !prev.property &&
          (CONTROL_WORDS.has(prev.text) || (prev.text === 'await' && before.kind === 'word' && before.text === 'for'));
        parens.push(control);
      }
      if (punctuator === ')') token.control = parens.length ? parens.pop() : 'unsure';
      significant(token);
      at += punctuator.length;
    }
    if (at < source.length) push('unsure', at, source.length);
    return tokens;
  }

  // ---- rendering ----
  const LONG_LINE = 160;

  // One engine line's code: the parts of `tokens` (from index `first` on) that fall on it, each
  // in its token's class, and a badge for a line break a reader might not see.
  function codeCell(source, line, tokens, first, marks) {
    const code = document.createElement('td');
    code.className = 'code';
    let at = line.start;
    for (let i = first; i < tokens.length && tokens[i].start < line.end; i += 1) {
      const start = Math.max(tokens[i].start, line.start);
      const end = Math.min(tokens[i].end, line.end);
      if (start > at) code.append(...visible(source.slice(at, start), marks));
      const span = document.createElement('span');
      span.className = `tok-${tokens[i].kind}`;
      span.append(...visible(source.slice(start, end), marks));
      code.append(span);
      at = end;
    }
    if (line.end > at) code.append(...visible(source.slice(at, line.end), marks));
    if (line.terminator && line.terminator !== '\n' && line.terminator !== '\r\n') {
      code.append(badge(line.terminator.codePointAt(0), 'a line break'));
      marks.breaks += 1;
    }
    return code;
  }

  // The source as rows of (engine line number, highlighted code), and what was marked in it.
  function render(source) {
    const marks = newMarks();
    const tokens = tokenize(source);
    const last = tokens[tokens.length - 1];
    const plainAt = last && last.kind === 'unsure' ? last.start : -1;
    const rows = [];
    let first = 0;
    for (const [index, line] of splitLines(source).entries()) {
      while (first < tokens.length && tokens[first].end <= line.start) first += 1;
      if (!marks.plainFrom && plainAt >= line.start && plainAt <= line.end) marks.plainFrom = index + 1;
      const number = document.createElement('td');
      number.className = 'ln';
      number.textContent = String(index + 1);
      const row = document.createElement('tr');
      if (line.text.length > LONG_LINE) {
        row.className = 'long';
        number.title = `${line.text.length} characters: the line wraps`;
        marks.longLines += 1;
      }
      row.append(number, codeCell(source, line, tokens, first, marks));
      rows.push(row);
    }
    return { rows, marks };
  }

  // One sentence on what was marked, or '' when nothing was.
  function summary(marks) {
    const parts = [];
    if (marks.breaks) parts.push(`${marks.breaks} unusual line break${marks.breaks === 1 ? '' : 's'} (CR, U+2028 or U+2029; the engine starts a new line there)`);
    if (marks.hidden) parts.push(`${marks.hidden} invisible, control or unusual space character${marks.hidden === 1 ? '' : 's'} shown as ⟨U+…⟩`);
    if (marks.nonAscii) parts.push(`${marks.nonAscii} other non-ASCII character${marks.nonAscii === 1 ? '' : 's'} (marked: a letter may imitate another)`);
    if (marks.longLines) parts.push(`${marks.longLines} line${marks.longLines === 1 ? '' : 's'} longer than ${LONG_LINE} characters (wrapped)`);
    if (marks.plainFrom) parts.push(`highlighting stops at line ${marks.plainFrom}, where it cannot be sure how the engine reads what follows: the rest is drawn plain`);
    return parts.length ? `Look closely: ${parts.join('; ')}.` : '';
  }

  // Text that is data, not code (indented JSON, an intent): its LF line breaks kept, every other
  // unusual character marked in place (a CR, U+2028 or U+2029 in data is a badge, not a break).
  function visibleBlock(text, marks = newMarks()) {
    const nodes = [];
    for (const [index, line] of text.split('\n').entries()) {
      if (index > 0) nodes.push(document.createTextNode('\n'));
      nodes.push(...visible(line, marks));
    }
    return nodes;
  }

  return { splitLines, tokenize, visible, visibleBlock, render, summary, newMarks };
})();
