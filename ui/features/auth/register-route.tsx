export { RegisterPage as Component } from '@ui/features/auth/register-page'
