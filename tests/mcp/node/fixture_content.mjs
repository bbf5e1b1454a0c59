// The non-text MCP content fixture_server.mjs answers, shared with the tests that compare the
// blocks codemode passes on byte for byte: `media` answers mediaContent, `picture` pictureOf(n).
export const mediaContent = [
  { type: 'text', text: 'five blocks' },
  { type: 'image', mimeType: 'image/png',
    data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==' },
  { type: 'audio', mimeType: 'audio/wav', data: Buffer.from('RIFF\0\0\0\0WAVEfmt ').toString('base64') },
  { type: 'resource', resource: { uri: 'file:///report.pdf', mimeType: 'application/pdf',
                                  blob: Buffer.from('%PDF-1.7 fixture').toString('base64') } },
  { type: 'resource', resource: { uri: 'file:///notes.md', mimeType: 'text/markdown',
                                  text: '# Notes\n' } },
  { type: 'resource_link', uri: 'file:///data.csv', name: 'data.csv', mimeType: 'text/csv' },
];
// An image of n bytes, as `picture` answers it.
export const pictureOf = (n) => ({ type: 'image', mimeType: 'image/png',
                                   data: Buffer.alloc(n, 0x5a).toString('base64') });
