// A small downstream MCP server for the integration tests, built on the official SDK's Server
// class. Its tools exercise what the MCP project's servers (server-everything, server-memory)
// cannot: dying mid-call, answering slowly (to be cancelled, or to overlap), failing with text that
// must never reach codemode's caller, results of a chosen size, and MCP content that is not text
// (an image, audio, embedded resources and a resource link; an image of a chosen size). With FIXTURE_RESTART_MARKER
// naming a file, `crash` leaves that file behind, and a server started while it exists never
// answers initialize: a restart that hangs.
import fs from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { mediaContent, pictureOf } from './fixture_content.mjs';

const objectSchema = { type: 'object', properties: {}, additionalProperties: false };
const tools = [
  { name: 'pid', description: 'The process id of this server.', inputSchema: objectSchema,
    annotations: { readOnlyHint: true } },
  { name: 'crash', description: 'Exits the server without answering.', inputSchema: objectSchema },
  { name: 'slow', description: 'Answers after 30 s unless cancelled.', inputSchema: objectSchema,
    annotations: { readOnlyHint: true } },
  { name: 'cancellations', description: 'How many calls were cancelled so far.',
    inputSchema: objectSchema, annotations: { readOnlyHint: true } },
  { name: 'fail', description: 'Fails with a secret-looking message.', inputSchema: objectSchema },
  { name: 'leak', description: 'Fails with its FIXTURE_TOKEN and working directory in the text.',
    inputSchema: objectSchema },
  { name: 'leak_thrown', description: 'Throws (a JSON-RPC error) with the same text.',
    inputSchema: objectSchema },
  { name: 'text', description: 'Answers {text} of n characters: n + 11 bytes of JSON.',
    inputSchema: { type: 'object', properties: { n: { type: 'integer', minimum: 0 } },
                   required: ['n'], additionalProperties: false },
    annotations: { readOnlyHint: true } },
  { name: 'media', description: 'Answers a text block, then an image, audio, a blob resource, a '
      + 'text resource and a resource link.',
    inputSchema: objectSchema, annotations: { readOnlyHint: true } },
  { name: 'picture', description: 'Answers one PNG image block of n bytes (base64 in the block).',
    inputSchema: { type: 'object', properties: { n: { type: 'integer', minimum: 0 } },
                   required: ['n'], additionalProperties: false },
    annotations: { readOnlyHint: true } },
  { name: 'wait', description: 'Answers {} after ms milliseconds.',
    inputSchema: { type: 'object', properties: { ms: { type: 'integer', minimum: 0,
                                                       maximum: 5000 } },
                   required: ['ms'], additionalProperties: false },
    annotations: { readOnlyHint: true } },
];
const restartMarker = process.env.FIXTURE_RESTART_MARKER;
const leakedText = () => `token ${process.env.FIXTURE_TOKEN} in ${process.cwd()}`;

let cancellations = 0;
const server = new Server({ name: 'fixture', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  const text = (value) => ({ content: [{ type: 'text', text: JSON.stringify(value) }] });
  switch (request.params.name) {
    case 'pid':
      return text({ pid: process.pid });
    case 'crash':
      if (restartMarker) fs.writeFileSync(restartMarker, '');
      process.exit(3);
    case 'slow':
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, 30_000);
        extra.signal.addEventListener('abort', () => {
          cancellations += 1;
          clearTimeout(timer);
          resolve();
        });
      });
      return text({ finished: true });
    case 'cancellations':
      return text({ cancellations });
    case 'text':
      return text({ text: 'x'.repeat(request.params.arguments.n) });
    case 'media':
      return { content: mediaContent };
    case 'picture':
      return { content: [pictureOf(request.params.arguments.n)] };
    case 'wait':
      await new Promise((resolve) => setTimeout(resolve, request.params.arguments.ms));
      return text({});
    case 'fail':
      return { isError: true,
               content: [{ type: 'text', text: 'GITHUB_TOKEN=fixture-secret at /private/cache' }] };
    case 'leak':
      return { isError: true, content: [{ type: 'text', text: leakedText() }] };
    case 'leak_thrown':
      throw new Error(leakedText());
    default:
      throw new Error('unknown tool');
  }
});
if (restartMarker && fs.existsSync(restartMarker)) {
  process.stdin.resume();  // reads requests and answers none, until killed
} else {
  await server.connect(new StdioServerTransport());
}
