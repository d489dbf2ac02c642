import { type KeyboardEvent, useState } from 'react'
import { Input } from '@ui/components/ui/input'

type InlineNumberProps = {
	value: number | null
	label: string
	min: number
	/** Called with the typed text when it differs from the value; answers the saved number, or undefined. */
	onCommit: (text: string) => Promise<number | undefined>
}

/** A number edited in its table cell: saved on blur or Enter, Escape puts the value back. */
export function InlineNumber({ value, label, min, onCommit }: InlineNumberProps) {
	const shown = value === null ? '' : String(value)
	const [text, setText] = useState(shown)
	const [saving, setSaving] = useState(false)
	const [lastValue, setLastValue] = useState(shown)
	if (lastValue !== shown) {
		setLastValue(shown)
		setText(shown)
	}

	async function commit() {
		if (text.trim() === shown) return
		setSaving(true)
		const saved = await onCommit(text)
		setSaving(false)
		setText(saved === undefined ? shown : String(saved))
	}

	function handleKey(event: KeyboardEvent<HTMLInputElement>) {
		if (event.key === 'Enter') event.currentTarget.blur()
		if (event.key === 'Escape') setText(shown)
	}

	return (
		<Input
			type="number"
			inputMode="numeric"
			className="h-8 w-20"
			aria-label={label}
			min={min}
			step={1}
			placeholder="-"
			value={text}
			disabled={saving}
			onChange={(event) => setText(event.target.value)}
			onBlur={commit}
			onKeyDown={handleKey}
		/>
	)
}
