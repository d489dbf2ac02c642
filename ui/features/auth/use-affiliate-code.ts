import { useEffect } from 'react'
import { useSearchParams } from 'react-router'
import { storageKeys, writeStorage } from '@ui/lib/storage'

/** The `?aff=` of an invitation link, remembered for a later registration or third-party sign-up. */
export function useAffiliateCode() {
	const [searchParameters] = useSearchParams()
	const affiliateCode = searchParameters.get('aff')
	useEffect(() => {
		if (affiliateCode) writeStorage(storageKeys.affiliateCode, affiliateCode)
	}, [affiliateCode])
	return affiliateCode
}
