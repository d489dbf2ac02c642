import type { RouteObject } from 'react-router'
import { LoginPage } from '@ui/features/auth/login-page'

export const authRoutes: RouteObject[] = [{ path: 'login', handle: { title: '登录' }, Component: LoginPage }]
