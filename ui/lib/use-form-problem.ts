/**
 * What a form's own checks found before it calls the server (issue 16): the message goes under each
 * field the problem names, whose control is marked `aria-invalid`, and into an error toast (which
 * replaces the last one). Every submit reports its check's answer, so the errors of the last submit
 * never linger next to the new ones.
 */
import { useState } from 'react'
import { toast } from '@ui/components/ui/toaster'
import { useTranslation } from '@ui/i18n'

/** `message` is a zh source string; `fields` names the form's fields at fault (none: the form as a whole). */
export type FormProblem = { message: string; values?: Record<string, string | number>; fields?: readonly string[] }

/** The id of the message under the control `controlId` (the control's `aria-describedby`). */
export const fieldErrorId = (controlId: string) => `${controlId}-error`

export function useFormProblem() {
	const { t } = useTranslation()
	const [problem, setProblem] = useState<FormProblem>()
	const names = (field: string) => problem?.fields?.includes(field) ?? false
	return {
		/** Call at every submit with the check's answer (undefined: none). Answers whether there is a problem. */
		report(next: FormProblem | undefined): next is FormProblem {
			setProblem(next)
			if (next) toast.error(t(next.message, next.values))
			return next !== undefined
		},
		/** The translated message to show under `field`, when the problem names it. */
		errorOf: (field: string) => (problem && names(field) ? t(problem.message, problem.values) : undefined),
		/** The props of the control `controlId` that shows `field`. */
		control: (field: string, controlId: string) => (names(field) ? { 'aria-invalid': true, 'aria-describedby': fieldErrorId(controlId) } as const : {}),
	}
}

export type FormProblemState = ReturnType<typeof useFormProblem>
