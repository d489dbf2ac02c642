declare module '*.sql' {
	const text: string
	export default text
}
declare module '*.css' {
	const path: string
	export default path
}
