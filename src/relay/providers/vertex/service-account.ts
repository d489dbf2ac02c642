/** The Vertex AI channel key: a Google service-account JSON key file, pasted whole. */

export interface ServiceAccount {
	projectId: string
	clientEmail: string
	privateKey: string
	privateKeyId: string
	/** Google's token endpoint; the key file names it, which lets tests point it elsewhere. */
	tokenUri: string
}

const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token'

class ServiceAccountKeyError extends Error {}

export function parseServiceAccount(key: string): ServiceAccount {
	let parsed: Record<string, unknown>
	try {
		parsed = JSON.parse(key) as Record<string, unknown>
	} catch {
		throw new ServiceAccountKeyError('the Vertex AI key must be a service-account JSON key')
	}
	const field = (name: string) => (typeof parsed[name] === 'string' ? (parsed[name] as string) : '')
	const account = {
		projectId: field('project_id'),
		clientEmail: field('client_email'),
		privateKey: field('private_key'),
		privateKeyId: field('private_key_id'),
		tokenUri: field('token_uri') || GOOGLE_TOKEN_URI,
	}
	if (!account.projectId || !account.clientEmail || !account.privateKey) {
		throw new ServiceAccountKeyError('the service-account key needs project_id, client_email and private_key')
	}
	return account
}
