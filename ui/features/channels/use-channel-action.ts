import { useRevalidator } from 'react-router'
import { toast } from '@ui/components/ui/toaster'
import { useTranslation } from '@ui/i18n'
import type { Envelope } from '@ui/lib/api'
import { callApi } from '@ui/lib/call-api'

type Success<Data> = string | ((data: Data) => string)

/**
 * Runs a mutation the list offers: failures are toasted (callApi), success toasts `success` (a zh
 * source string, or a function answering translated text) and reloads the list.
 */
export function useChannelAction() {
	const { t } = useTranslation()
	const revalidator = useRevalidator()
	return async function run<Data>(call: Promise<Envelope<Data>>, success?: Success<Data>): Promise<Envelope<Data> | undefined> {
		const envelope = await callApi(t, call)
		if (!envelope) return undefined
		if (success) toast.success(typeof success === 'string' ? t(success) : success(envelope.data))
		await revalidator.revalidate()
		return envelope
	}
}
