export { LoginPage as Component } from '@ui/features/auth/login-page'
