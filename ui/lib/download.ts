/** Saves `text` as a file through a temporary link; the browser names it `fileName`. */
export function downloadText(fileName: string, text: string, type = 'text/plain;charset=utf-8') {
	const url = URL.createObjectURL(new Blob([text], { type }))
	const link = document.createElement('a')
	link.href = url
	link.download = fileName
	document.body.append(link)
	link.click()
	link.remove()
	// Revoked after the click has been handled, or the download could find the URL gone.
	setTimeout(() => URL.revokeObjectURL(url), 0)
}
