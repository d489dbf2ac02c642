declare module '*.sql' {
	const text: string
	export default text
}
declare module '*.css' {
	const path: string
	export default path
}
/** Swagger UI's browser bundle, embedded as a file (`with { type: 'file' }`) for the offline API reference. */
declare module 'swagger-ui-dist/swagger-ui-bundle.js' {
	const path: string
	export default path
}
/** The documentation's Markdown, embedded as text (`with { type: 'text' }`) for the console's docs pages. */
declare module '*.md' {
	const text: string
	export default text
}
