/**
 * Sends the browser to the payment service (docs/specification/tokens-and-money.md#online-top-up): the order fields from `POST /api/user/pay`
 * become a hidden form posted to the returned url, as a payment service expects a checkout to arrive.
 */
export function submitPaymentForm(url: string, fields: Record<string, string>) {
	const form = document.createElement('form')
	form.method = 'POST'
	form.action = url
	form.style.display = 'none'
	for (const [name, value] of Object.entries(fields)) {
		const input = document.createElement('input')
		input.type = 'hidden'
		input.name = name
		input.value = value
		form.appendChild(input)
	}
	document.body.appendChild(form)
	form.submit()
	form.remove()
}
