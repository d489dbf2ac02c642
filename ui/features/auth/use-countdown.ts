import { useCallback, useEffect, useState } from 'react'

/** The verification-code and reset buttons rest 30 seconds after a mail is sent (docs/specification/accounts-and-settings.md#email-codes-and-password-reset). */
export const RESEND_COUNTDOWN_SECONDS = 30
const TICK_MILLISECONDS = 1000

/** Seconds left (0 when idle) and a way to start counting down from `seconds`. */
export function useCountdown(seconds: number = RESEND_COUNTDOWN_SECONDS) {
	const [remaining, setRemaining] = useState(0)
	useEffect(() => {
		if (remaining <= 0) return
		const timer = setTimeout(() => setRemaining((value) => value - 1), TICK_MILLISECONDS)
		return () => clearTimeout(timer)
	}, [remaining])
	const start = useCallback(() => setRemaining(seconds), [seconds])
	return { remaining, running: remaining > 0, start }
}
