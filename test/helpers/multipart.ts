/**
 * A `multipart/form-data` body written out by hand, so that a test may repeat a name as often as it
 * likes and put anything in a value (FormData would do the first too, but slowly for 40 000 parts).
 */
export function multipartBody(parts: readonly (readonly [name: string, value: string])[], boundary = 'ferry-test-boundary') {
	const text = parts.map(([name, value]) => `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join('') + `--${boundary}--\r\n`
	return { text, contentType: `multipart/form-data; boundary=${boundary}` }
}
