// Content handles at MCP level, driven by the official MCP TypeScript SDK client over stdio against
// fixture_server.mjs's `media` (a text block, an image, audio, a blob and a text resource, a
// resource link) and `picture` (one image of a chosen size): in code mode the program sees a
// handle in place of each non-text block, never its data; a handle the program returns brings the
// block to the client byte for byte; one it does not return brings nothing; a forged handle, or
// one of another invocation, brings nothing and a note; the count and byte bounds throw their
// codes in the program; direct mode still answers the blocks as they came.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cli, here, writeConfig } from './environment.mjs';
import { mediaContent, pictureOf } from './fixture_content.mjs';

const servers = { fixture: { command: process.execPath, args: [path.join(here, 'fixture_server.mjs')] } };

const defaults = writeConfig('codemode-mcp-content-', { servers });
// Three blocks and 4 KiB of them per invocation.
const bounded = writeConfig('codemode-mcp-content-bounded-', {
  servers, policy: { contentBlocks: 3, contentBytes: 4096 } });

const clients = {};

async function connect(configPath, mode) {
  const client = new Client({ name: 'codemode-content-tests', version: '1.0.0' });
  await client.connect(new StdioClientTransport({
    command: cli, args: ['mcp', '--mode', mode, '--config', configPath], stderr: 'pipe' }));
  return client;
}

before(async () => {
  clients.code = await connect(defaults.configPath, 'code');
  clients.bounded = await connect(bounded.configPath, 'code');
  clients.direct = await connect(defaults.configPath, 'direct');
});

after(async () => {
  for (const client of Object.values(clients)) await client.close();
  for (const { scratch } of [defaults, bounded]) fs.rmSync(scratch, { recursive: true, force: true });
});

// One `code` call; its first content block is always the result's JSON.
async function run(client, code) {
  const result = await client.callTool({ name: 'code', arguments: { code } });
  assert.equal(result.content[0].type, 'text');
  assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
  return result;
}

const handleShape = (handle) => Object.keys(handle).sort();

test('the code tool says what a handle is, in one sentence', async () => {
  const { tools } = await clients.code.listTools();
  assert.match(tools[0].description, /\{"\$codemode":"content", handle, type, mimeType, bytes\}/);
});

test('the program sees a handle with type, mimeType and bytes, and no data', async () => {
  // As a string, which holds no handle object: what the program saw, and nothing returned.
  const result = await run(clients.code,
                           `return JSON.stringify((await codemode.fixture.media({})).content);`);
  assert.equal(result.isError, false);
  const [text, image, audio, blob, notes, link] = JSON.parse(result.structuredContent.result);
  assert.deepEqual(text, mediaContent[0]);
  const handle = /^c[1-9][0-9]*-[0-9a-f]{12}$/;
  assert.match(image.handle, handle);
  assert.deepEqual({ ...image, handle: 'h' },
                   { $codemode: 'content', handle: 'h', type: 'image', mimeType: 'image/png',
                     bytes: Buffer.from(mediaContent[1].data, 'base64').length });
  assert.deepEqual({ ...audio, handle: 'h' },
                   { $codemode: 'content', handle: 'h', type: 'audio', mimeType: 'audio/wav',
                     bytes: 16 });
  assert.deepEqual({ ...blob, handle: 'h' },
                   { $codemode: 'content', handle: 'h', type: 'resource', mimeType: 'application/pdf',
                     uri: 'file:///report.pdf', bytes: 16 });
  assert.deepEqual({ ...notes, handle: 'h' },
                   { $codemode: 'content', handle: 'h', type: 'resource', mimeType: 'text/markdown',
                     uri: 'file:///notes.md', bytes: 8, text: '# Notes\n' });
  assert.deepEqual(handleShape(link),
                   ['$codemode', 'bytes', 'handle', 'mimeType', 'name', 'type', 'uri']);
  // Five handles of one invocation: c1 .. c5, one tag.
  const tags = new Set([image, audio, blob, notes, link].map((h) => h.handle.split('-')[1]));
  assert.equal(tags.size, 1);
  assert.deepEqual([image, audio, blob, notes, link].map((h) => h.handle.split('-')[0]),
                   ['c1', 'c2', 'c3', 'c4', 'c5']);
  // No base64 anywhere the program could see, nor in the client's answer.
  const shown = JSON.stringify(result);
  for (const block of [mediaContent[1], mediaContent[2]]) assert.ok(!shown.includes(block.data));
  assert.ok(!shown.includes(mediaContent[3].resource.blob));
  // Not returned, so nothing but the result's text.
  assert.equal(result.content.length, 1);
});

test('a returned handle brings its block to the client, byte for byte', async () => {
  const result = await run(clients.code, `
    const { content } = await codemode.fixture.media({});
    return { caption: content[0].text, chart: content[1] };`);
  assert.equal(result.isError, false);
  assert.equal(result.structuredContent.result.caption, 'five blocks');
  assert.equal(result.content.length, 2);
  assert.deepEqual(result.content[1], mediaContent[1]);
  assert.equal(result.content[1].data, mediaContent[1].data);
});

test('handles anywhere in the result bring every block once, in order', async () => {
  const result = await run(clients.code, `
    const { content } = await codemode.fixture.media({});
    const [, image, audio, blob, notes, link] = content;
    return { files: [link, blob, notes], media: { audio, again: [audio, image] } };`);
  assert.deepEqual(result.content.slice(1),
                   [mediaContent[5], mediaContent[3], mediaContent[4], mediaContent[2],
                    mediaContent[1]]);
});

test('an image past hostResultBytes reaches the client through its handle', async () => {
  const n = 200 * 1024;
  const result = await run(clients.code, `
    const { content } = await codemode.fixture.picture({ n: ${n} });
    return content[0];`);
  assert.equal(result.isError, false);
  assert.equal(result.structuredContent.result.bytes, n);
  assert.deepEqual(result.content[1], pictureOf(n));
});

test('a handle not returned brings nothing, and is gone with its invocation', async () => {
  const first = await run(clients.code, `
    const { content } = await codemode.fixture.media({});
    return content[1];`);
  const earlier = first.structuredContent.result;
  assert.equal(first.content.length, 2);
  const unreturned = await run(clients.code, `
    await codemode.fixture.media({});
    return 'looked';`);
  assert.deepEqual(unreturned.content.length, 1);
  // The earlier invocation's handle, returned by a later one that holds blocks of its own.
  const later = await run(clients.code, `
    await codemode.fixture.media({});
    return ${JSON.stringify(earlier)};`);
  assert.equal(later.isError, false);
  assert.deepEqual(later.structuredContent.result, earlier);
  assert.equal(later.content.length, 2);
  assert.match(later.content[1].text, /^codemode: 1 content handle\(s\) in the result name no/);
});

test('a forged handle is not resolved, whatever it names', async () => {
  const result = await run(clients.code, `
    const { content } = await codemode.fixture.media({});
    const tag = content[1].handle.split('-')[1];
    return [
      { $codemode: 'content', handle: 'c9-' + tag, type: 'image' },
      { $codemode: 'content', handle: 'c1-000000000000', type: 'image' },
      { $codemode: 'content', handle: 'c01-' + tag, type: 'image' },
      { $codemode: 'content', handle: 7 },
    ];`);
  assert.equal(result.isError, false);
  assert.equal(result.content.length, 2);
  assert.equal(result.content[1].type, 'text');
  assert.match(result.content[1].text, /^codemode: 4 content handle\(s\)/);
});

test('past contentBlocks or contentBytes the call throws its code, holding nothing', async () => {
  const result = await run(clients.bounded, `
    const seen = [];
    const attempt = async (call) => {
      try { seen.push((await call()).content.length); }
      catch (e) { seen.push([e.code, e.message, e.operation]); }
    };
    await attempt(() => codemode.fixture.media({}));  // five blocks, three allowed
    await attempt(() => codemode.fixture.picture({ n: 4000 }));  // 5,385 bytes, 4,096 allowed
    for (let i = 0; i < 4; i++) {
      await attempt(() => codemode.fixture.picture({ n: 600 }));  // 849 bytes; the 4th: a 4th block
    }
    return seen;`);
  assert.deepEqual(result.structuredContent.result, [
    ['content_blocks_limit', 'content-block budget exhausted', 'fixture.media'],
    ['content_bytes_limit', 'content-byte budget exhausted', 'fixture.picture'],
    1, 1, 1,
    ['content_blocks_limit', 'content-block budget exhausted', 'fixture.picture'],
  ]);
  // Per invocation: the next call starts with all of them.
  const next = await run(clients.bounded, `
    return (await codemode.fixture.picture({ n: 1000 })).content[0].bytes;`);
  assert.deepEqual(next.structuredContent, { result: 1000 });
});

test('direct mode answers the blocks as the server sent them', async () => {
  const media = await clients.direct.callTool({ name: 'fixture.media', arguments: {} });
  assert.equal(media.isError, false);
  assert.deepEqual(media.content, mediaContent);
  assert.equal(media.structuredContent, undefined);
  const picture = await clients.direct.callTool({ name: 'fixture.picture', arguments: { n: 64 } });
  assert.deepEqual(picture.content, [pictureOf(64)]);
});
