/** The request language lives in `@shared/request-language`, where the playground relay reads it too. */
export { acceptedLanguage, DEFAULT_API_LANGUAGE, requestLanguage } from '@shared/request-language'
